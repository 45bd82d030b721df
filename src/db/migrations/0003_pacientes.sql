CREATE TABLE "pacientes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"nome" text NOT NULL,
	"cpf" text,
	"data_nascimento" date,
	"sexo" text,
	"telefone" text,
	"email" text,
	"cep" text,
	"logradouro" text,
	"numero" text,
	"complemento" text,
	"bairro" text,
	"cidade" text,
	"uf" text,
	"responsavel_nome" text,
	"responsavel_cpf" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"busca" text GENERATED ALWAYS AS (app_search_text(coalesce(nome, '') || ' ' || coalesce(cpf, '') || ' ' || coalesce(telefone, '') || ' ' || coalesce(email, ''))) STORED NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pacientes" ADD CONSTRAINT "pacientes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pacientes" ADD CONSTRAINT "pacientes_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pacientes_tenant_created_idx" ON "pacientes" USING btree ("tenant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "pacientes_tenant_cpf_unique" ON "pacientes" USING btree ("tenant_id","cpf") WHERE "pacientes"."cpf" is not null;--> statement-breakpoint
CREATE INDEX "pacientes_busca_trgm_idx" ON "pacientes" USING gin ("busca" gin_trgm_ops);