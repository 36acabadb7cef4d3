CREATE TABLE "portfolio_assets" (
	"portfolio_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"invested_amount" double precision NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "portfolio_assets_portfolio_id_symbol_pk" PRIMARY KEY("portfolio_id","symbol")
);
--> statement-breakpoint
CREATE TABLE "portfolio_valuations" (
	"portfolio_id" integer NOT NULL,
	"date" date NOT NULL,
	"value" double precision NOT NULL,
	"return" double precision NOT NULL,
	"risk" double precision NOT NULL,
	"score" double precision NOT NULL,
	"community_percentile" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "portfolio_valuations_portfolio_id_date_pk" PRIMARY KEY("portfolio_id","date")
);
--> statement-breakpoint
ALTER TABLE "portfolios" ADD COLUMN "total_invested" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "portfolios" ADD COLUMN "initial_invested" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "portfolios" ADD COLUMN "max_assets_level" integer;--> statement-breakpoint
ALTER TABLE "portfolios" ADD COLUMN "remaining_editions" integer;--> statement-breakpoint
ALTER TABLE "portfolios" ADD COLUMN "answers" jsonb;--> statement-breakpoint
ALTER TABLE "portfolios" ADD COLUMN "priced_on" date;--> statement-breakpoint
ALTER TABLE "portfolios" ADD COLUMN "growth" double precision DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "portfolio_assets" ADD CONSTRAINT "portfolio_assets_portfolio_id_portfolios_id_fk" FOREIGN KEY ("portfolio_id") REFERENCES "public"."portfolios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portfolio_assets" ADD CONSTRAINT "portfolio_assets_symbol_assets_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "public"."assets"("symbol") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portfolio_valuations" ADD CONSTRAINT "portfolio_valuations_portfolio_id_portfolios_id_fk" FOREIGN KEY ("portfolio_id") REFERENCES "public"."portfolios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "portfolio_assets_symbol_idx" ON "portfolio_assets" USING btree ("symbol");--> statement-breakpoint
CREATE INDEX "portfolio_valuations_date_idx" ON "portfolio_valuations" USING btree ("date");