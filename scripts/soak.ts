// `npm run soak`: mixed traffic against a server on this machine's loopback for a bounded time
// (10 minutes by default; `-- --minutes N`), on demand (not in CI). It reports the requests per
// endpoint, the errors (must be 0) and the server's memory over time (must be flat), and exits 1
// when either fails. Every request goes to 127.0.0.1; the loop stops by itself.
import { readFileSync } from "node:fs";
import { apiCall, killServer, signIn, startServer } from "../tests/support/server-process.ts";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const minutes = Math.min(60, Number(option("--minutes") ?? 10));
const concurrency = Math.min(64, Number(option("--concurrency") ?? 16));

const server = await startServer({
  RATE_LIMIT_ANALYTICS_PER_MINUTE: "1000000",
  // One account sends all the traffic: the per-account share of the workers would refuse it.
  ANALYTICS_PER_ACCOUNT: "100000",
  BILLING_JOB_INTERVAL_MS: "5000",
  ...(option("--pg") ? { DATABASE_URL: option("--pg")! } : {}),
});
const rss = () => {
  const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

try {
  const token = await signIn(server.base, "all-advanced@demo.test");
  const assets = (await apiCall(server.base, "GET", "/market/assets?product=simAssets")).body
    .assets as { symbol: string }[];
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  const portfolio = () => ({
    currency: pick(["EUR", "USD"] as const),
    assets: [
      ...new Set(
        Array.from({ length: 3 + Math.floor(Math.random() * 12) }, () => pick(assets).symbol),
      ),
    ].map((symbol) => ({ symbol, investedAmount: 500 + Math.floor(Math.random() * 5000) })),
  });
  const mix: [string, () => Promise<{ status: number }>][] = [
    ["GET /market/today", () => apiCall(server.base, "GET", "/market/today")],
    ["GET /market/assets", () => apiCall(server.base, "GET", "/market/assets?product=simAssets")],
    [
      "GET /market/assets/:symbol",
      () => apiCall(server.base, "GET", `/market/assets/${pick(assets).symbol}?range=1y`),
    ],
    ["GET /billing/plans", () => apiCall(server.base, "GET", "/billing/plans?currency=EUR")],
    ["GET /client", () => apiCall(server.base, "GET", "/client", token)],
    ["GET /portfolios", () => apiCall(server.base, "GET", "/portfolios", token)],
    [
      "POST /analytics/analyse",
      () => apiCall(server.base, "POST", "/analytics/analyse", token, portfolio()),
    ],
    [
      "POST /analytics/optimise",
      () => apiCall(server.base, "POST", "/analytics/optimise", token, portfolio()),
    ],
    ["GET /auth/captcha", () => apiCall(server.base, "GET", "/auth/captcha")],
    ["GET /health", () => apiCall(server.base, "GET", "/health")],
  ];
  const counts = new Map<string, { ok: number; errors: number }>();
  const memory: number[] = [];
  const end = Date.now() + minutes * 60_000;
  const sampler = setInterval(() => memory.push(rss()), 5000);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const [name, run] = pick(mix);
        const { status } = await run();
        const c = counts.get(name) ?? { ok: 0, errors: 0 };
        // A refusal the traffic asks for (a 422 on a short history) is an answer; an error is a 5xx,
        // a dropped connection, or a 429 the lifted limits should not give.
        if (status === 0 || status >= 500 || status === 429) c.errors++;
        else c.ok++;
        counts.set(name, c);
      }
    }),
  );
  clearInterval(sampler);
  const errors = [...counts.values()].reduce((a, c) => a + c.errors, 0);
  const total = [...counts.values()].reduce((a, c) => a + c.ok + c.errors, 0);
  for (const [name, c] of [...counts].sort())
    console.log(
      `${name.padEnd(36)} ${String(c.ok).padStart(8)} ok ${String(c.errors).padStart(5)} errors`,
    );
  const third = Math.max(1, Math.floor(memory.length / 3));
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const early = avg(memory.slice(0, third));
  const late = avg(memory.slice(-third));
  console.log(
    `\n${total} requests in ${minutes} min (${(total / (minutes * 60)).toFixed(0)}/s), ${errors} errors; RSS first third ${early.toFixed(0)} MB, last third ${late.toFixed(0)} MB (${(((late - early) / early) * 100).toFixed(1)}%), max ${Math.max(...memory).toFixed(0)} MB`,
  );
  const flat = late <= early * 1.2;
  if (errors > 0 || !flat) {
    console.error(errors > 0 ? "FAILED: errors" : "FAILED: memory grew more than 20%");
    process.exitCode = 1;
  }
} finally {
  await killServer(server);
}
