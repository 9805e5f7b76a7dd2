CREATE TABLE "billing_coupons" (
	"code" text PRIMARY KEY NOT NULL,
	"duration_interval" integer NOT NULL,
	"duration_unit" text NOT NULL,
	"max_redemptions" integer,
	"redemption_count" integer DEFAULT 0 NOT NULL,
	"grantable" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "billing_coupons_redemptions_check" CHECK ("billing_coupons"."max_redemptions" is null or "billing_coupons"."redemption_count" <= "billing_coupons"."max_redemptions")
);
--> statement-breakpoint
CREATE TABLE "billing_payment_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"product_id" text NOT NULL,
	"subscription_id" integer,
	"purpose" text NOT NULL,
	"period_start" timestamp with time zone,
	"coupon_code" text,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"processor" text NOT NULL,
	"processor_ref" text,
	"client_secret" text NOT NULL,
	"billing_profile_id" integer,
	"idempotency_key" text,
	"request_hash" text,
	"failure_code" text,
	"failure_message" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"succeeded_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_payment_intents_purpose_check" CHECK ("billing_payment_intents"."purpose" in ('checkout', 'renewal')),
	CONSTRAINT "billing_payment_intents_status_check" CHECK ("billing_payment_intents"."status" in ('creating', 'requires_payment_method', 'requires_action', 'processing', 'succeeded', 'failed', 'refunded'))
);
--> statement-breakpoint
CREATE TABLE "billing_products" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"frequency_interval" integer NOT NULL,
	"frequency_unit" text NOT NULL,
	"trial_interval" integer DEFAULT 0 NOT NULL,
	"trial_unit" text DEFAULT 'day' NOT NULL,
	"platforms" jsonb DEFAULT '["web"]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"payment_provider" text NOT NULL,
	"cc_token" text NOT NULL,
	"card_brand" text NOT NULL,
	"card_last4" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"product_id" text NOT NULL,
	"status" text NOT NULL,
	"is_trial" boolean DEFAULT false NOT NULL,
	"requested_cancellation" boolean DEFAULT false NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"billing_profile_id" integer,
	"coupon_code" text,
	"trial_interval" integer DEFAULT 0 NOT NULL,
	"trial_unit" text DEFAULT 'day' NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"retry_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_subscriptions_status_check" CHECK ("billing_subscriptions"."status" in ('pending', 'active', 'past_due', 'lapsed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "billing_user_coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"coupon_code" text NOT NULL,
	"country_code" text DEFAULT 'US' NOT NULL,
	"redeemed" boolean DEFAULT false NOT NULL,
	"redeemed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"processor" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "local_processor_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"payment_method" text,
	"status" text NOT NULL,
	"failure_code" text,
	"failure_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_payment_intents" ADD CONSTRAINT "billing_payment_intents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_payment_intents" ADD CONSTRAINT "billing_payment_intents_product_id_billing_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."billing_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_payment_intents" ADD CONSTRAINT "billing_payment_intents_subscription_id_billing_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."billing_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_payment_intents" ADD CONSTRAINT "billing_payment_intents_billing_profile_id_billing_profiles_id_fk" FOREIGN KEY ("billing_profile_id") REFERENCES "public"."billing_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_profiles" ADD CONSTRAINT "billing_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_product_id_billing_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."billing_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_billing_profile_id_billing_profiles_id_fk" FOREIGN KEY ("billing_profile_id") REFERENCES "public"."billing_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_user_coupons" ADD CONSTRAINT "billing_user_coupons_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_user_coupons" ADD CONSTRAINT "billing_user_coupons_coupon_code_billing_coupons_code_fk" FOREIGN KEY ("coupon_code") REFERENCES "public"."billing_coupons"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_payment_intents_user_idx" ON "billing_payment_intents" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_payment_intents_key_idx" ON "billing_payment_intents" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_payment_intents_processor_ref_idx" ON "billing_payment_intents" USING btree ("processor","processor_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_payment_intents_renewal_idx" ON "billing_payment_intents" USING btree ("subscription_id","period_start") WHERE "billing_payment_intents"."purpose" = 'renewal';--> statement-breakpoint
CREATE INDEX "billing_profiles_user_idx" ON "billing_profiles" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "billing_subscriptions_user_idx" ON "billing_subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "billing_subscriptions_due_idx" ON "billing_subscriptions" USING btree ("status","ends_at");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_user_coupons_pair_idx" ON "billing_user_coupons" USING btree ("user_id","coupon_code");--> statement-breakpoint
CREATE UNIQUE INDEX "local_processor_payments_key_idx" ON "local_processor_payments" USING btree ("idempotency_key");--> statement-breakpoint
INSERT INTO "billing_products" ("id", "name", "amount", "currency", "frequency_interval", "frequency_unit") VALUES ('mvp-monthly', 'MVP Monthly', 599, 'usd', 1, 'month'), ('mvp-annual', 'MVP Annual', 2999, 'usd', 12, 'month') ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "billing_coupons" ("code", "duration_interval", "duration_unit", "max_redemptions", "grantable") VALUES ('MVP90', 90, 'day', NULL, false), ('MVP30', 30, 'day', NULL, false), ('MVPYEAR', 365, 'day', 500, false), ('UAWIRELESS', 90, 'day', NULL, true) ON CONFLICT DO NOTHING;
