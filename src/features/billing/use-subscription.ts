import { useEffect, useRef, useState } from "react";
import { fromPromise } from "xstate";
import type { PlanSelection } from "../../../machines/guards/billing-facts.ts";
import { subscriptionMachine } from "../../../machines/subscription.machine.ts";
import { useServices } from "../../app/services.tsx";
import { orFailure } from "../../app/session/session-actor.ts";
import { useSession } from "../../app/session/use-session.ts";
import { useAppMachine } from "../../app/use-app-machine.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { Tier } from "../../contract/permissions.ts";
import { Schema } from "effect";

const PREVIOUS_TIER_KEY = "payment-previous-tier";
const isTier = Schema.is(Tier);

/** The tier held before a payment, kept for the payment-complete screen across the provider's page. */
export function rememberedPreviousTier(paymentId: string): Tier | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(PREVIOUS_TIER_KEY) ?? "{}") as Record<
      string,
      unknown
    >;
    const tier = stored[paymentId];
    return isTier(tier) ? tier : null;
  } catch {
    return null;
  }
}

function rememberPreviousTier(paymentId: string, tier: Tier | null): void {
  if (!tier) return;
  try {
    sessionStorage.setItem(PREVIOUS_TIER_KEY, JSON.stringify({ [paymentId]: tier }));
  } catch {
    // Storage may be unavailable (private mode): the screen then infers the tier from the payment.
  }
}

/** Leaves the app for a page outside it; replaced in tests. */
export const leaveApp = { assign: (url: string) => window.location.assign(url) };

/**
 * The subscription machine of a billing screen, with its calls, the redirect to the provider and
 * the reload of the session's client (so that a new plan's permissions apply at once). A plan
 * chosen (subscribe/confirm's address) is sent as `plan.choose` once the plans are loaded and the
 * machine is ready, as the person chose it: the machine goes through the states its chart says.
 */
export function useSubscription(
  options: {
    /** The plan asked for (subscribe/confirm), sent as `plan.choose` once the machine is ready. */
    selection?: PlanSelection | null;
    paymentId?: string | null;
    previousTier?: Tier | null;
  } = {},
) {
  const { http, config } = useServices();
  const [client, session] = useSession((s) => s.context.client);
  const [machine] = useState(() =>
    subscriptionMachine.provide({
      actors: {
        loadBilling: fromPromise(async () => {
          const [overview, invoiceInfo] = await Promise.all([
            orFailure(() => http.call(endpoints.billing)),
            orFailure(() => http.call(endpoints.invoiceInfo)),
          ]);
          return { overview, invoiceInfo };
        }),
        quote: fromPromise(({ input }) =>
          orFailure(() => http.call(endpoints.quote, { body: input })),
        ),
        saveInvoiceInfo: fromPromise(({ input }) =>
          orFailure(() => http.call(endpoints.updateInvoiceInfo, { body: input })),
        ),
        checkout: fromPromise(({ input }) =>
          orFailure(() =>
            http.call(endpoints.checkout, { body: input, idempotencyKey: input.idempotencyKey }),
          ),
        ),
        fetchPayment: fromPromise(({ input }) =>
          orFailure(() => http.call(endpoints.payment, { params: { id: input.id } })),
        ),
        scheduleChange: fromPromise(({ input }) =>
          orFailure(() => http.call(endpoints.scheduleChange, { body: input })),
        ),
        cancelScheduledChange: fromPromise(({ input }) =>
          orFailure(() => http.call(endpoints.cancelScheduledChange, { body: input })),
        ),
        cancelSubscription: fromPromise(({ input }) =>
          orFailure(() => http.call(endpoints.cancelSubscription, { body: input })),
        ),
        reactivateSubscription: fromPromise(({ input }) =>
          orFailure(() => http.call(endpoints.reactivateSubscription, { body: input })),
        ),
        startTrial: fromPromise(({ input }) =>
          orFailure(() => http.call(endpoints.startTrial, { body: input })),
        ),
      },
      actions: {
        redirectToProvider: (_, params) => {
          rememberPreviousTier(params.paymentId, params.previousTier);
          leaveApp.assign(params.url);
        },
        refreshClient: () => {
          void http
            .call(endpoints.client)
            .then((fresh) => session.send({ type: "client.updated", client: fresh }))
            .catch(() => {});
        },
      },
    }),
  );
  const currentTier =
    options.selection && client ? client.subscriptions[options.selection.product].tier : null;
  const actor = useAppMachine(machine, {
    input: {
      edition: config.edition,
      kind: client?.kind ?? null,
      paymentId: options.paymentId ?? null,
      previousTier: options.previousTier ?? currentTier,
    },
  });
  const [snapshot, send] = actor;
  const chosen = useRef(false);
  const ready = snapshot.matches("ready") && snapshot.context.error === null;
  useEffect(() => {
    // Once: the plan of the address, not again when the machine comes back to "ready".
    if (!ready || !options.selection || chosen.current) return;
    chosen.current = true;
    send({ type: "plan.choose", selection: options.selection });
  }, [ready, options.selection, send]);
  return actor;
}
