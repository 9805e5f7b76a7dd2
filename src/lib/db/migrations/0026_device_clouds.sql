CREATE TABLE "device_authorizations" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"cloud" text NOT NULL,
	"code_verifier" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_connections" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"cloud" text NOT NULL,
	"cloud_account" text NOT NULL,
	"sealed_tokens" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sync_from" timestamp with time zone NOT NULL,
	"last_sync_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "device_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"cloud" text NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"workout_id" integer,
	"message" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_cloud_activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"cloud_account" text NOT NULL,
	"outing" text NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_cloud_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"cloud_account" text NOT NULL,
	"code_challenge" text,
	"redirect_uri" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "device_authorizations" ADD CONSTRAINT "device_authorizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_connections" ADD CONSTRAINT "device_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_imports" ADD CONSTRAINT "device_imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_imports" ADD CONSTRAINT "device_imports_workout_id_workouts_id_fk" FOREIGN KEY ("workout_id") REFERENCES "public"."workouts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_connections_user_cloud_idx" ON "device_connections" USING btree ("user_id","cloud");--> statement-breakpoint
CREATE INDEX "device_connections_account_idx" ON "device_connections" USING btree ("cloud","cloud_account");--> statement-breakpoint
CREATE UNIQUE INDEX "device_imports_activity_idx" ON "device_imports" USING btree ("user_id","cloud","external_id");--> statement-breakpoint
CREATE INDEX "device_imports_user_idx" ON "device_imports" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "test_cloud_activities_user_idx" ON "test_cloud_activities" USING btree ("cloud_account","start_time");