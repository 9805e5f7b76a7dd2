CREATE TABLE "challenge_teams" (
	"id" serial PRIMARY KEY NOT NULL,
	"challenge_id" integer NOT NULL,
	"name" text NOT NULL,
	"progress" double precision DEFAULT 0 NOT NULL,
	"member_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "challenge_participants" ADD COLUMN "team_id" integer;--> statement-breakpoint
ALTER TABLE "challenge_participants" ADD COLUMN "age_grade" double precision;--> statement-breakpoint
ALTER TABLE "challenge_participants" ADD COLUMN "age_grade_metres" double precision;--> statement-breakpoint
ALTER TABLE "challenge_participants" ADD COLUMN "age_grade_seconds" double precision;--> statement-breakpoint
ALTER TABLE "challenge_participants" ADD COLUMN "age_graded_seconds" double precision;--> statement-breakpoint
ALTER TABLE "challenge_teams" ADD CONSTRAINT "challenge_teams_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "challenge_teams_name_idx" ON "challenge_teams" USING btree ("challenge_id","name");--> statement-breakpoint
ALTER TABLE "challenge_participants" ADD CONSTRAINT "challenge_participants_team_id_challenge_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."challenge_teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "challenge_participants_age_grade_idx" ON "challenge_participants" USING btree ("challenge_id","age_grade" DESC NULLS LAST,"user_id");--> statement-breakpoint
CREATE INDEX "challenge_participants_team_idx" ON "challenge_participants" USING btree ("team_id","progress");