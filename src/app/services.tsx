import { createContext, useContext, type ReactNode } from "react";
import type { Product } from "../contract/common.ts";
import type { RuntimeConfig } from "../contract/runtime-config.ts";
import type { HttpClient } from "../client/http.ts";
import { editionBrands, type EditionBrand } from "../ui/editions.ts";
import type { Cache } from "../client/cache.ts";
import type { AppActor } from "./app-actor.ts";
import type { PortfolioWorkspace } from "./portfolio-workspace.ts";
import type { ProductStore } from "./product-store.ts";
import type { Navigation } from "./route-follow.ts";
import type { SessionActor } from "./session/session-actor.ts";

/** What every screen may use: the runtime configuration, the edition's brand and the API client. */
export interface AppServices {
  readonly config: RuntimeConfig;
  readonly brand: EditionBrand;
  readonly http: HttpClient;
  /** The current product (`stc`) sent with every request. */
  readonly product: () => Product;
  /**
   * The app's root actor, owner of the long-lived actors (src/app/app-actor.ts; null in tests that
   * do not need it).
   */
  readonly app: AppActor | null;
  /** The root's session child (`systemIds.session`; null in tests that give access facts directly). */
  readonly session: SessionActor | null;
  readonly cache: Cache | null;
  /**
   * The portfolio being created or worked on: events to the root and reads of its wizard and
   * lifecycle children (null in tests that do not need it).
   */
  readonly portfolios: PortfolioWorkspace | null;
  /** Where the current product is kept; q1 and opened portfolios change it. */
  readonly products: ProductStore | null;
  /** Where the machines send the person (their `follow` action); the shell binds its router. */
  readonly navigation: Navigation;
}

const ServicesContext = createContext<AppServices | null>(null);

export function ServicesProvider({
  services,
  children,
}: {
  services: AppServices;
  children: ReactNode;
}) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error("useServices outside ServicesProvider");
  return services;
}

export const brandOf = (config: RuntimeConfig): EditionBrand => editionBrands[config.edition];
