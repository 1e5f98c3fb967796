/* The pipe's limit: answers every line on stdin with one fixed response line, without parsing.
 * The stdio benchmark runs it beside the real servers to show what the machine itself allows. */
#include <string.h>
#include <unistd.h>

static const char response[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"hello\"}]}}\n";

int main(void) {
    static char input[1 << 16];
    static char output[1 << 20];
    ssize_t n;
    while ((n = read(0, input, sizeof input)) > 0) {
        size_t used = 0;
        for (ssize_t i = 0; i < n; ++i) {
            if (input[i] != '\n') continue;
            if (used + sizeof response > sizeof output) {
                if (write(1, output, used) < 0) return 1;
                used = 0;
            }
            memcpy(output + used, response, sizeof response - 1);
            used += sizeof response - 1;
        }
        if (used > 0 && write(1, output, used) < 0) return 1;
    }
    return 0;
}
