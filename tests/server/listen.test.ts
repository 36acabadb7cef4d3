// The API's HTTP server keeps an idle keep-alive connection open longer than Node's default 5 s:
// a client (or a load balancer) that sends its next request on it after a pause is answered, not
// reset with "socket hang up".
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { KEEP_ALIVE_TIMEOUT_MS, listen } from "../../src/server/listen.ts";

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

async function started() {
  const server = await new Promise<http.Server>((resolve) => {
    const s = listen({ fetch: () => new Response("ok"), port: 0, hostname: "127.0.0.1" }, () =>
      resolve(s as http.Server),
    ) as http.Server;
  });
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return server;
}

function get(port: number, agent: http.Agent) {
  return new Promise<{ body: string; reusedSocket: boolean }>((resolve, reject) => {
    const request = http.get({ host: "127.0.0.1", port, path: "/", agent }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ body, reusedSocket: request.reusedSocket }));
    });
    request.on("error", reject);
  });
}

describe("the API's HTTP server", () => {
  it("keeps idle connections longer than a load balancer's 60 s, and headers wait longer still", async () => {
    const server = await started();
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
  });

  it("answers a request sent on a connection left idle for 6 s, on that same connection", async () => {
    const server = await started();
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await get(port, agent)).toEqual({ body: "ok", reusedSocket: false });
      // Longer than Node's default keep-alive timeout (5 s): with it, the server would have closed
      // the connection and the agent would open a new one.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(await get(port, agent)).toEqual({ body: "ok", reusedSocket: true });
    } finally {
      agent.destroy();
    }
  }, 20_000);
});
