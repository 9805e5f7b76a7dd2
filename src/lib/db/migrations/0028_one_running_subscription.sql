-- A member holds one running membership. Duplicates bought before this rule end now: the one that runs
-- longest stays; the charges of the others are still in billing_payment_intents for a refund.
UPDATE "billing_subscriptions" SET "status" = 'cancelled', "requested_cancellation" = true
WHERE "status" in ('active', 'past_due') AND EXISTS (
	SELECT 1 FROM "billing_subscriptions" AS "kept"
	WHERE "kept"."user_id" = "billing_subscriptions"."user_id"
		AND "kept"."status" in ('active', 'past_due')
		AND ("kept"."ends_at" > "billing_subscriptions"."ends_at"
			OR ("kept"."ends_at" = "billing_subscriptions"."ends_at" AND "kept"."id" < "billing_subscriptions"."id"))
);--> statement-breakpoint
CREATE UNIQUE INDEX "billing_subscriptions_one_running_idx" ON "billing_subscriptions" USING btree ("user_id") WHERE "billing_subscriptions"."status" in ('active', 'past_due');
