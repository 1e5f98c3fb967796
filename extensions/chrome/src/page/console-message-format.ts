/**
 * The `message` of a console entry: the arguments as one line, the way DevTools would show them.
 * It works on already serialized arguments, so formatting can never run page code (toString,
 * getters) a second time.
 */
(function registerConsoleMessageFormat() {
  const MAX_MESSAGE_LENGTH = 8192;

  function asText(value: unknown): string {
    if (typeof value === "string") return value;
    if (value === null || typeof value !== "object") return String(value);
    try {
      return JSON.stringify(value);
    } catch {
      return String(value);
    }
  }

  function substitute(format: string, rest: unknown[]): { text: string; used: number } {
    let used = 0;
    const text = format.replace(/%([sdifoOc%])/g, (match, directive: string) => {
      if (directive === "%") return "%";
      if (used >= rest.length) return match;
      const argument = rest[used++];
      switch (directive) {
        case "s":
          return asText(argument);
        case "d":
        case "i": {
          const number = typeof argument === "number" ? argument : Number.parseInt(asText(argument), 10);
          return String(Math.trunc(number));
        }
        case "f":
          return String(typeof argument === "number" ? argument : Number.parseFloat(asText(argument)));
        case "c":
          return "";
        default:
          return asText(argument);
      }
    });
    return { text, used };
  }

  function formatConsoleMessage(serializedArgs: unknown[]): string {
    if (serializedArgs.length === 0) return "";
    let pieces: string[];
    const [first, ...rest] = serializedArgs;
    if (typeof first === "string" && first.includes("%")) {
      const { text, used } = substitute(first, rest);
      pieces = [text, ...rest.slice(used).map(asText)];
    } else {
      pieces = serializedArgs.map(asText);
    }
    const message = pieces.join(" ");
    return message.length > MAX_MESSAGE_LENGTH ? message.slice(0, MAX_MESSAGE_LENGTH) + "…[truncated]" : message;
  }

  const parts = (globalThis.__mcpkitDevconsoleParts ??= {} as DevconsolePageParts);
  parts.formatConsoleMessage = formatConsoleMessage;
})();
