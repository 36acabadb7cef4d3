/// <reference types="vite/client" />

declare module "*.po" {
  import type { Messages } from "@lingui/core";
  export const messages: Messages;
}

/** Identifies the build; the app compares it with builds/latest.json to offer a reload. */
declare const __BUILD_ID__: string;

/** ALTCHA's translation modules register themselves; they export nothing we use. */
declare module "altcha/i18n/*";
