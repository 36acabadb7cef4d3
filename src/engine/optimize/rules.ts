/**
 * The optimisation rules live in the contract (src/contract/optimisation-rules.ts) so that the
 * server, the engine and the optimise machine's guards call one implementation.
 */
export * from "../../contract/optimisation-rules.ts";
