import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { MsgCode, ValidationIssue } from "../../contract/msg-codes.ts";

/** A failure the API answers with a status and a `msgCode`; thrown by handlers, caught by the app. */
export class ApiFailure extends Error {
  readonly status: ContentfulStatusCode;
  readonly msgCode: MsgCode;
  readonly issues: readonly ValidationIssue[] | undefined;

  constructor(status: ContentfulStatusCode, msgCode: MsgCode, issues?: readonly ValidationIssue[]) {
    super(msgCode);
    this.name = "ApiFailure";
    this.status = status;
    this.msgCode = msgCode;
    this.issues = issues;
  }
}
