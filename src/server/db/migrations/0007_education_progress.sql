CREATE TABLE "education_progress" (
	"client_id" integer NOT NULL,
	"course_id" text NOT NULL,
	"section_id" text NOT NULL,
	"best_score" integer NOT NULL,
	"last_score" integer NOT NULL,
	"total" integer NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"passed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "education_progress_client_id_course_id_section_id_pk" PRIMARY KEY("client_id","course_id","section_id")
);
--> statement-breakpoint
ALTER TABLE "education_progress" ADD CONSTRAINT "education_progress_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;