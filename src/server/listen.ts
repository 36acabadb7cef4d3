import type { Server } from "node:http";
import { serve, type ServerType } from "@hono/node-server";

/**
 * How long an idle keep-alive connection stays open: longer than a load balancer's idle timeout
 * (60 s on the common ones), so that the server never closes a connection at the moment its peer
 * sends a request on it. Node's default is 5 s: a client that waited about that long between two
 * requests could have its request reset ("socket hang up") instead of answered.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** The HTTP server of the API: `fetch` on `host:port`, with the keep-alive timing above. */
export function listen(
  options: {
    fetch: (request: Request) => Response | Promise<Response>;
    port: number;
    hostname: string;
  },
  onListening?: (port: number) => void,
): ServerType {
  const server = serve(options, (info) => onListening?.(info.port));
  const http = server as Server;
  http.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Headers of a request may arrive up to the keep-alive limit; Node wants this one larger.
  http.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  return server;
}
