CREATE TABLE "workout_held_data" (
	"workout_id" integer PRIMARY KEY NOT NULL,
	"series" jsonb,
	"laps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"heart_rate" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workouts" ADD COLUMN "held_back" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "workout_held_data" ADD CONSTRAINT "workout_held_data_workout_id_workouts_id_fk" FOREIGN KEY ("workout_id") REFERENCES "public"."workouts"("id") ON DELETE cascade ON UPDATE no action;