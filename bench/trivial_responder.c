/* The pipe's limit: answers every line on stdin with an echo response, copying the request's id
 * and "text" by scanning for them (no JSON parser, no MCP). The stdio benchmark runs it beside the
 * real servers to show what the machine itself allows; the driver checks its answers like theirs.
 *
 *   trivial_responder [--poll-us N]
 *
 * --poll-us N: after answering, keep reading without blocking for up to N µs before sleeping in
 * poll(2), the same technique as mcpkit's adaptive polling, so the two can be compared polling
 * against polling and sleeping against sleeping. */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char input[1 << 16];
static char output[1 << 20];
static size_t used;

static void flush_output(void) {
    size_t offset = 0;
    while (offset < used) {
        ssize_t n = write(1, output + offset, used - offset);
        if (n <= 0) exit(1);
        offset += (size_t)n;
    }
    used = 0;
}

static void append(const char* data, size_t length) {
    if (used + length > sizeof output) flush_output();
    memcpy(output + used, data, length);
    used += length;
}

#define APPEND(literal) append(literal, sizeof(literal) - 1)

/* The digits after "id": and the characters of "text":"…" up to the closing quote. */
static void answer(const char* line, size_t length) {
    const char* end = line + length;
    const char* id = memmem(line, length, "\"id\":", 5);
    const char* text = memmem(line, length, "\"text\":\"", 8);
    if (!id) return;
    id += 5;
    const char* id_end = id;
    while (id_end < end && ((*id_end >= '0' && *id_end <= '9') || *id_end == '-')) ++id_end;
    const char* text_end = text ? (text += 8, memchr(text, '"', (size_t)(end - text))) : NULL;
    APPEND("{\"jsonrpc\":\"2.0\",\"id\":");
    append(id, (size_t)(id_end - id));
    APPEND(",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"");
    if (text_end) append(text, (size_t)(text_end - text));
    APPEND("\"}]}}\n");
}

static long long now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

int main(int argc, char** argv) {
    long poll_us = 0;
    if (argc == 3 && strcmp(argv[1], "--poll-us") == 0) poll_us = atol(argv[2]);
    if (poll_us > 0) fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
    size_t pending = 0; /* bytes of an incomplete line kept at the start of input */
    long long spin_until = 0;
    for (;;) {
        ssize_t n = read(0, input + pending, sizeof input - pending);
        if (n < 0 && errno == EAGAIN) {
            if (now_us() < spin_until) continue;
            struct pollfd fd = {0, POLLIN, 0};
            poll(&fd, 1, -1);
            continue;
        }
        if (n <= 0) break;
        size_t available = pending + (size_t)n, start = 0;
        for (size_t i = pending; i < available; ++i) {
            if (input[i] != '\n') continue;
            answer(input + start, i - start);
            start = i + 1;
        }
        pending = available - start;
        memmove(input, input + start, pending);
        if (used > 0) flush_output();
        if (poll_us > 0) spin_until = now_us() + poll_us;
    }
    if (used > 0) flush_output();
    return 0;
}
