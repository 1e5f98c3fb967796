import type { CommandStatus } from "./sync-protocol.js";

/** What a command handler produces; the router adds the tab fields and turns it into a CommandResult. */
export interface CommandOutcome {
  status: CommandStatus;
  result: Record<string, unknown>;
  error?: string;
}

export function succeeded(fields: Record<string, unknown> = {}): CommandOutcome {
  return { status: "complete", result: { success: true, ...fields } };
}

/** The error code appears twice, as the original does: in the result envelope and inside `result`. */
export function failed(
  error: string,
  message: string,
  fields: Record<string, unknown> = {},
  status: CommandStatus = "error",
): CommandOutcome {
  return { status, error, result: { success: false, error, message, ...fields } };
}

/** Thrown anywhere below a handler to end the command with a specific error code. */
export class CommandFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly fields: Record<string, unknown> = {},
    readonly status: CommandStatus = "error",
  ) {
    super(message);
    this.name = "CommandFailure";
  }

  toOutcome(): CommandOutcome {
    return failed(this.code, this.message, this.fields, this.status);
  }
}

export function stringParam(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  return typeof value === "string" ? value : undefined;
}

export function numberParam(params: Record<string, unknown>, name: string): number | undefined {
  const value = params[name];
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

export function booleanParam(params: Record<string, unknown>, name: string): boolean | undefined {
  const value = params[name];
  return typeof value === "boolean" ? value : undefined;
}

/** MCP tools name the sub-action `action` or (newer) `what`; accept either. */
export function actionParam(params: Record<string, unknown>): string | undefined {
  return stringParam(params, "action") ?? stringParam(params, "what");
}
