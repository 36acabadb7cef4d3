import { spawn } from "node:child_process";

/** Runs a command with the project's tools first in PATH; resolves with its exit code. */
export function run(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on("error", () => resolve(127));
  });
}

/** Runs a command like `run`, keeping its output (stdout and stderr together) to print later. */
export function runQuietly(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: "1", ...env },
    });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.stderr.on("data", (c: Buffer) => chunks.push(c));
    child.on("close", (code, signal) =>
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString("utf8") }),
    );
    child.on("error", (e) => resolve({ code: 127, output: String(e) }));
  });
}
