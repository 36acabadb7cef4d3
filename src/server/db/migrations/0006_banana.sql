CREATE TABLE "banana_portfolios" (
	"portfolio_id" integer PRIMARY KEY NOT NULL,
	"region" text NOT NULL,
	"created_on" date NOT NULL,
	"seed" integer NOT NULL,
	"universe" jsonb NOT NULL,
	"monkey" jsonb NOT NULL,
	"latest_date" date,
	"ranking_return" double precision
);
--> statement-breakpoint
CREATE TABLE "banana_valuations" (
	"portfolio_id" integer NOT NULL,
	"date" date NOT NULL,
	"value" double precision NOT NULL,
	"return" double precision NOT NULL,
	"monkey_return" double precision NOT NULL,
	"index_return" double precision,
	"percentile" double precision NOT NULL,
	"monkeys_mean" double precision NOT NULL,
	"quantiles" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "banana_valuations_portfolio_id_date_pk" PRIMARY KEY("portfolio_id","date")
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "alias" text;--> statement-breakpoint
ALTER TABLE "portfolio_assets" ADD COLUMN "shares" integer;--> statement-breakpoint
ALTER TABLE "banana_portfolios" ADD CONSTRAINT "banana_portfolios_portfolio_id_portfolios_id_fk" FOREIGN KEY ("portfolio_id") REFERENCES "public"."portfolios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banana_valuations" ADD CONSTRAINT "banana_valuations_portfolio_id_portfolios_id_fk" FOREIGN KEY ("portfolio_id") REFERENCES "public"."portfolios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "banana_portfolios_ranking_idx" ON "banana_portfolios" USING btree ("region","ranking_return" desc nulls last,"portfolio_id");--> statement-breakpoint
CREATE UNIQUE INDEX "clients_alias_key" ON "clients" USING btree (lower("alias"));