import { useEffect } from "react";

/** An actor whose pages are routes: it is told which of them the person is on. */
interface PagedActor<P extends string> {
  send(event: { type: "page.opened"; page: P } | { type: "page.left" }): void;
  getSnapshot(): { status: string };
}

/**
 * Tells a machine that one of its pages is open while the screen is mounted (`page.opened`, with
 * the page: opened at another step than the machine's, the machine decides where the person goes)
 * and that the person left it (`page.left`: what the machine does next moves no page). The screen
 * itself never navigates: the machine's `follow` action does (src/app/route-follow.ts).
 */
export function usePage<P extends string>(actor: PagedActor<P> | null | undefined, page: P): void {
  useEffect(() => {
    if (!actor) return;
    const active = () => actor.getSnapshot().status === "active";
    if (active()) actor.send({ type: "page.opened", page });
    return () => {
      if (active()) actor.send({ type: "page.left" });
    };
  }, [actor, page]);
}
