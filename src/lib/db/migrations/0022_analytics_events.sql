CREATE TABLE "analytics_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" uuid,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"page_type" text,
	"value" double precision,
	"attributes" jsonb NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "analytics_events_occurred_idx" ON "analytics_events" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "analytics_events_device_idx" ON "analytics_events" USING btree ("device_id","occurred_at");