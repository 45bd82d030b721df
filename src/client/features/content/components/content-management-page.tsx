import { useSearchParams } from "react-router";
import { PageHeader } from "@/components/ui/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useCurrentUser } from "@/features/auth";
import { CONTENT_KIND_LABEL, CONTENT_KINDS, type ContentKind } from "@shared/schemas/content";
import { ContentTab } from "./content-tab";
import { profileCan } from "@shared/permissions";

const isKind = (value: string | null): value is ContentKind => CONTENT_KINDS.includes(value as ContentKind);

/** /content-management (spec part 2 §2): Riscos, Benefícios and Cuidados Pós-op in tabs. */
export function ContentManagementPage() {
  const { data: user } = useCurrentUser();
  const canEdit = profileCan(user?.profile, "content.write");
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = searchParams.get("aba");
  const kind: ContentKind = isKind(tab) ? tab : "riscos";

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Gestão de Conteúdo"
        description="Riscos, benefícios e cuidados pós-operatórios usados nos documentos"
      />
      <Tabs
        value={kind}
        onValueChange={(value) => setSearchParams({ aba: value }, { replace: true })}
        className="gap-4"
      >
        <TabsList className="w-full sm:w-fit">
          {CONTENT_KINDS.map((value) => (
            <TabsTrigger key={value} value={value} className="sm:px-4">
              {CONTENT_KIND_LABEL[value]}
            </TabsTrigger>
          ))}
        </TabsList>
        {CONTENT_KINDS.map((value) => (
          <TabsContent key={value} value={value}>
            <ContentTab kind={value} canEdit={canEdit} />
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}
