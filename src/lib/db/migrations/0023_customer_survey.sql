CREATE TABLE "survey_responses" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"survey" text NOT NULL,
	"dismissed" boolean DEFAULT false NOT NULL,
	"score" integer,
	"main_use" text,
	"comment" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "survey_responses_score_check" CHECK ("survey_responses"."score" is null or "survey_responses"."score" between 0 and 10)
);
--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "survey_responses_user_survey_idx" ON "survey_responses" USING btree ("user_id","survey");