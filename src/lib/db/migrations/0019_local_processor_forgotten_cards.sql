CREATE TABLE "local_processor_forgotten_cards" (
	"payment_method" text PRIMARY KEY NOT NULL,
	"forgotten_at" timestamp with time zone DEFAULT now() NOT NULL
);
