import { createContext, useContext, type ReactNode } from "react";
import type { AccessFacts } from "../../machines/guards/access-facts.ts";

const AccessFactsContext = createContext<AccessFacts | null>(null);

/** Provides what the route guards look at; the session and portfolio machines keep it current. */
export function AccessFactsProvider({
  facts,
  children,
}: {
  facts: AccessFacts;
  children: ReactNode;
}) {
  return <AccessFactsContext.Provider value={facts}>{children}</AccessFactsContext.Provider>;
}

export function useAccessFacts(): AccessFacts {
  const facts = useContext(AccessFactsContext);
  if (!facts) throw new Error("useAccessFacts outside AccessFactsProvider");
  return facts;
}
