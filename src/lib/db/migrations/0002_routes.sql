CREATE TABLE "route_bookmarks" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"route_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "routes" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"activity_type_id" integer DEFAULT 16 NOT NULL,
	"privacy" integer DEFAULT 0 NOT NULL,
	"link_token" text NOT NULL,
	"distance_m" double precision NOT NULL,
	"ascent_m" double precision,
	"descent_m" double precision,
	"min_elevation_m" double precision,
	"max_elevation_m" double precision,
	"path" text NOT NULL,
	"point_count" integer NOT NULL,
	"elevations" jsonb,
	"travel_modes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"segments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cues" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"markers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"start_lat" double precision NOT NULL,
	"start_lng" double precision NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "routes_privacy_check" CHECK ("routes"."privacy" in (0, 1, 3, 6))
);
--> statement-breakpoint
CREATE TABLE "friendships" (
	"id" serial PRIMARY KEY NOT NULL,
	"from_user_id" integer NOT NULL,
	"to_user_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "friendships_status_check" CHECK ("friendships"."status" in ('pending', 'active')),
	CONSTRAINT "friendships_not_self_check" CHECK ("friendships"."from_user_id" <> "friendships"."to_user_id")
);
--> statement-breakpoint
ALTER TABLE "route_bookmarks" ADD CONSTRAINT "route_bookmarks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "route_bookmarks" ADD CONSTRAINT "route_bookmarks_route_id_routes_id_fk" FOREIGN KEY ("route_id") REFERENCES "public"."routes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "routes" ADD CONSTRAINT "routes_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "friendships" ADD CONSTRAINT "friendships_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "friendships" ADD CONSTRAINT "friendships_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "route_bookmarks_user_route_idx" ON "route_bookmarks" USING btree ("user_id","route_id");--> statement-breakpoint
CREATE INDEX "route_bookmarks_route_idx" ON "route_bookmarks" USING btree ("route_id");--> statement-breakpoint
CREATE INDEX "routes_owner_created_idx" ON "routes" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "routes_privacy_created_idx" ON "routes" USING btree ("privacy","created_at");--> statement-breakpoint
CREATE INDEX "routes_start_idx" ON "routes" USING btree ("start_lat","start_lng");--> statement-breakpoint
CREATE INDEX "routes_distance_idx" ON "routes" USING btree ("distance_m");--> statement-breakpoint
CREATE UNIQUE INDEX "routes_link_token_idx" ON "routes" USING btree ("link_token");--> statement-breakpoint
CREATE UNIQUE INDEX "friendships_pair_idx" ON "friendships" USING btree ("from_user_id","to_user_id");--> statement-breakpoint
CREATE INDEX "friendships_to_user_idx" ON "friendships" USING btree ("to_user_id","status");