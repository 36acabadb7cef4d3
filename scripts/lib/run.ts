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
