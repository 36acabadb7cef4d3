CREATE TABLE "assets" (
	"symbol" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"universe" text NOT NULL,
	"exchange" text,
	"asset_class" text,
	"region" text,
	"country" text,
	"currency" text NOT NULL,
	"sector" text,
	"source_id" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "macro_values" (
	"series" text NOT NULL,
	"date" date NOT NULL,
	"value" double precision NOT NULL,
	CONSTRAINT "macro_values_series_date_pk" PRIMARY KEY("series","date")
);
--> statement-breakpoint
CREATE TABLE "prices" (
	"symbol" text NOT NULL,
	"date" date NOT NULL,
	"close" double precision NOT NULL,
	CONSTRAINT "prices_symbol_date_pk" PRIMARY KEY("symbol","date")
);
--> statement-breakpoint
ALTER TABLE "prices" ADD CONSTRAINT "prices_symbol_assets_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "public"."assets"("symbol") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assets_universe_idx" ON "assets" USING btree ("universe");