CREATE TABLE "member_stories" (
	"id" serial PRIMARY KEY NOT NULL,
	"actor_id" integer NOT NULL,
	"object_type" text NOT NULL,
	"subject_id" integer NOT NULL,
	"period" text DEFAULT '' NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"live" boolean DEFAULT true NOT NULL,
	"privacy_cap" integer DEFAULT 3 NOT NULL,
	"title" text NOT NULL,
	"details" jsonb NOT NULL,
	CONSTRAINT "member_stories_type_check" CHECK ("member_stories"."object_type" in ('goal', 'challenge'))
);
--> statement-breakpoint
ALTER TABLE "story_comments" DROP CONSTRAINT "story_comments_type_check";--> statement-breakpoint
ALTER TABLE "story_likes" DROP CONSTRAINT "story_likes_type_check";--> statement-breakpoint
ALTER TABLE "member_stories" ADD CONSTRAINT "member_stories_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "member_stories_subject_idx" ON "member_stories" USING btree ("object_type","subject_id","actor_id","period");--> statement-breakpoint
CREATE INDEX "member_stories_actor_idx" ON "member_stories" USING btree ("actor_id","published_at","id");--> statement-breakpoint
ALTER TABLE "story_comments" ADD CONSTRAINT "story_comments_type_check" CHECK ("story_comments"."object_type" in ('workout', 'route', 'goal', 'challenge'));--> statement-breakpoint
ALTER TABLE "story_likes" ADD CONSTRAINT "story_likes_type_check" CHECK ("story_likes"."object_type" in ('workout', 'route', 'goal', 'challenge'));