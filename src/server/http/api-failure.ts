import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { MsgCode, ValidationIssue } from "../../contract/msg-codes.ts";

/** A failure the API answers with a status and a `msgCode`; thrown by handlers, caught by the app. */
export class ApiFailure extends Error {
  readonly status: ContentfulStatusCode;
  readonly msgCode: MsgCode;
  readonly issues: readonly ValidationIssue[] | undefined;
  /** Headers the answer carries (e.g. Retry-After). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: ContentfulStatusCode,
    msgCode: MsgCode,
    issues?: readonly ValidationIssue[],
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(msgCode);
    this.name = "ApiFailure";
    this.status = status;
    this.msgCode = msgCode;
    this.issues = issues;
    this.headers = headers;
  }
}
