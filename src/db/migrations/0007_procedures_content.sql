CREATE TABLE "beneficios" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"titulo" text NOT NULL,
	"descricao" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"categoria" text,
	CONSTRAINT "beneficios_tenant_id_unique" UNIQUE("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "cuidados_pos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"titulo" text NOT NULL,
	"descricao" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"periodo" text,
	CONSTRAINT "cuidados_pos_tenant_id_unique" UNIQUE("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "procedimento_beneficios" (
	"tenant_id" uuid NOT NULL,
	"procedimento_id" uuid NOT NULL,
	"beneficio_id" uuid NOT NULL,
	CONSTRAINT "procedimento_beneficios_pk" PRIMARY KEY("tenant_id","procedimento_id","beneficio_id")
);
--> statement-breakpoint
CREATE TABLE "procedimento_cuidados" (
	"tenant_id" uuid NOT NULL,
	"procedimento_id" uuid NOT NULL,
	"cuidado_id" uuid NOT NULL,
	CONSTRAINT "procedimento_cuidados_pk" PRIMARY KEY("tenant_id","procedimento_id","cuidado_id")
);
--> statement-breakpoint
CREATE TABLE "procedimento_riscos" (
	"tenant_id" uuid NOT NULL,
	"procedimento_id" uuid NOT NULL,
	"risco_id" uuid NOT NULL,
	CONSTRAINT "procedimento_riscos_pk" PRIMARY KEY("tenant_id","procedimento_id","risco_id")
);
--> statement-breakpoint
CREATE TABLE "procedimentos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"nome" text NOT NULL,
	"descricao" text,
	"especialidade" text,
	"is_private" boolean DEFAULT false NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "procedimentos_tenant_id_unique" UNIQUE("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "riscos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"titulo" text NOT NULL,
	"descricao" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"categoria" text,
	CONSTRAINT "riscos_tenant_id_unique" UNIQUE("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "beneficios" ADD CONSTRAINT "beneficios_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "beneficios" ADD CONSTRAINT "beneficios_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cuidados_pos" ADD CONSTRAINT "cuidados_pos_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cuidados_pos" ADD CONSTRAINT "cuidados_pos_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedimento_beneficios" ADD CONSTRAINT "procedimento_beneficios_procedimento_fk" FOREIGN KEY ("tenant_id","procedimento_id") REFERENCES "public"."procedimentos"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedimento_beneficios" ADD CONSTRAINT "procedimento_beneficios_beneficio_fk" FOREIGN KEY ("tenant_id","beneficio_id") REFERENCES "public"."beneficios"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedimento_cuidados" ADD CONSTRAINT "procedimento_cuidados_procedimento_fk" FOREIGN KEY ("tenant_id","procedimento_id") REFERENCES "public"."procedimentos"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedimento_cuidados" ADD CONSTRAINT "procedimento_cuidados_cuidado_fk" FOREIGN KEY ("tenant_id","cuidado_id") REFERENCES "public"."cuidados_pos"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedimento_riscos" ADD CONSTRAINT "procedimento_riscos_procedimento_fk" FOREIGN KEY ("tenant_id","procedimento_id") REFERENCES "public"."procedimentos"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedimento_riscos" ADD CONSTRAINT "procedimento_riscos_risco_fk" FOREIGN KEY ("tenant_id","risco_id") REFERENCES "public"."riscos"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedimentos" ADD CONSTRAINT "procedimentos_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedimentos" ADD CONSTRAINT "procedimentos_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "riscos" ADD CONSTRAINT "riscos_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "riscos" ADD CONSTRAINT "riscos_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "beneficios_tenant_titulo_idx" ON "beneficios" USING btree ("tenant_id","titulo");--> statement-breakpoint
CREATE INDEX "cuidados_pos_tenant_titulo_idx" ON "cuidados_pos" USING btree ("tenant_id","titulo");--> statement-breakpoint
CREATE INDEX "procedimento_beneficios_tenant_item_idx" ON "procedimento_beneficios" USING btree ("tenant_id","beneficio_id");--> statement-breakpoint
CREATE INDEX "procedimento_cuidados_tenant_item_idx" ON "procedimento_cuidados" USING btree ("tenant_id","cuidado_id");--> statement-breakpoint
CREATE INDEX "procedimento_riscos_tenant_item_idx" ON "procedimento_riscos" USING btree ("tenant_id","risco_id");--> statement-breakpoint
CREATE INDEX "procedimentos_tenant_nome_idx" ON "procedimentos" USING btree ("tenant_id","nome");--> statement-breakpoint
CREATE INDEX "riscos_tenant_titulo_idx" ON "riscos" USING btree ("tenant_id","titulo");