import { MailPlus, Pencil } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { NativeSelect } from "@/components/form/native-select";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Switch } from "@/components/ui/switch";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { ApiError } from "@/lib/api";
import { formatCpf } from "@shared/br/cpf";
import { ROLE_LABEL, type Role } from "@shared/permissions";
import { specialtyName } from "@shared/reference/specialties";
import type { ConselhoTipo } from "@shared/reference/councils";
import { ASSIGNABLE_ROLES, type AssignableRole, type User, USER_MESSAGES } from "@shared/schemas/users";
import { useChangeUserRole, useResendInvitation, useSetUserActive } from "../api/users-api";
import { EditUserDialog } from "./edit-user-dialog";
import { formatDate } from "@shared/format";

const DASH = <span className="text-muted-foreground">—</span>;
const serverDetail = (error: unknown) =>
  error instanceof ApiError && error.code !== "INTERNAL" ? error.message : undefined;

function Council({ user }: { user: User }) {
  if (!user.conselho_tipo) return DASH;
  const specialties = user.especialidades.map((e) =>
    [specialtyName(e.especialidade, user.conselho_tipo as ConselhoTipo), e.rqe ? `RQE ${e.rqe}` : null]
      .filter(Boolean)
      .join(" · "),
  );
  return (
    <div className="grid gap-0.5">
      <span className="tabular-nums">
        {user.conselho_tipo} {user.conselho_numero}/{user.conselho_uf}
      </span>
      {specialties.map((text) => (
        <span key={text} className="text-xs text-muted-foreground">
          {text}
        </span>
      ))}
    </div>
  );
}

function StatusCell({ user }: { user: User }) {
  const setActive = useSetUserActive();
  const [confirming, setConfirming] = useState(false);
  const run = async (isActive: boolean) => {
    try {
      await setActive.mutateAsync({ id: user.id, isActive });
      toast.success(isActive ? USER_MESSAGES.activated : USER_MESSAGES.deactivated);
    } catch (error) {
      toast.error(USER_MESSAGES.statusError, { description: serverDetail(error) });
    }
  };
  const label = user.is_active ? "Ativo" : "Inativo";
  return (
    <div className="flex flex-wrap items-center gap-2">
      {user.is_proprietario ? (
        <Badge variant="success">{label}</Badge>
      ) : (
        <>
          <Switch
            checked={user.is_active}
            disabled={setActive.isPending}
            aria-label={`${user.is_active ? "Desativar" : "Ativar"} ${user.nome}`}
            onCheckedChange={(next) => (next ? void run(true) : setConfirming(true))}
          />
          <Badge variant={user.is_active ? "success" : "secondary"}>{label}</Badge>
        </>
      )}
      {user.convite ? (
        <Badge variant="warning" title={`Validade: ${formatDate(user.convite.expires_at)}`}>
          {user.convite.status === "pendente" ? "Convite pendente" : "Convite expirado"}
        </Badge>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Desativar ${user.nome}?`}
        description="As sessões abertas desse usuário serão encerradas agora e ele não conseguirá entrar até ser ativado de novo. Os documentos e registros dele continuam na clínica."
        confirmLabel="Desativar"
        onConfirm={() => {
          setConfirming(false);
          void run(false);
        }}
      />
    </div>
  );
}

function RoleCell({ user }: { user: User }) {
  const change = useChangeUserRole();
  if (user.is_proprietario) {
    return (
      <div className="grid gap-1">
        <span>{ROLE_LABEL[user.role as Role] ?? user.role}</span>
        <Badge variant="outline">Proprietário</Badge>
      </div>
    );
  }
  return (
    <NativeSelect
      aria-label={`Função de ${user.nome}`}
      value={user.role}
      disabled={change.isPending || !user.is_active}
      className="h-9 min-w-40"
      onChange={async (event) => {
        const role = event.target.value as AssignableRole;
        try {
          await change.mutateAsync({ id: user.id, role });
          toast.success(USER_MESSAGES.roleChanged, { description: `${user.nome}: ${ROLE_LABEL[role]}` });
        } catch (error) {
          toast.error(USER_MESSAGES.roleError, { description: serverDetail(error) });
        }
      }}
    >
      {(ASSIGNABLE_ROLES as readonly string[]).includes(user.role) ? null : (
        <option value={user.role}>{ROLE_LABEL[user.role as Role] ?? user.role}</option>
      )}
      {ASSIGNABLE_ROLES.map((value) => (
        <option key={value} value={value}>
          {ROLE_LABEL[value]}
        </option>
      ))}
    </NativeSelect>
  );
}

function ResendButton({ user }: { user: User }) {
  const resend = useResendInvitation();
  if (!user.convite || !user.is_active) return null;
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={resend.isPending}
      onClick={async () => {
        try {
          await resend.mutateAsync(user.id);
          toast.success(USER_MESSAGES.inviteResent(user.email));
        } catch (error) {
          toast.error(USER_MESSAGES.inviteError, { description: serverDetail(error) });
        }
      }}
    >
      <MailPlus /> Reenviar convite
    </Button>
  );
}

/** The clinic's users: name and e-mail, role, council, status (spec part 2 §2). */
export function UsersTable({ users }: { users: User[] }) {
  const [editing, setEditing] = useState<User | null>(null);
  return (
    <div className="overflow-x-auto">
      <EditUserDialog user={editing} onOpenChange={(open) => !open && setEditing(null)} />
      <Table aria-label="Usuários" data-testid="users-table">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead className="pl-4">Usuário</TableHead>
            <TableHead>Função</TableHead>
            <TableHead className="hidden md:table-cell">Conselho</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="pr-4">
              <span className="sr-only">Ações</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {users.map((user) => (
            <TableRow
              key={user.id}
              data-testid="user-row"
              className={user.is_active ? undefined : "text-muted-foreground"}
            >
              <TableCell className="max-w-72 py-3 pl-4">
                <span className="block truncate font-medium">{user.nome}</span>
                <span className="block truncate text-xs text-muted-foreground">{user.email}</span>
                <span className="block text-xs text-muted-foreground tabular-nums">CPF {formatCpf(user.cpf)}</span>
              </TableCell>
              <TableCell>
                <RoleCell user={user} />
              </TableCell>
              <TableCell className="hidden md:table-cell">
                <Council user={user} />
              </TableCell>
              <TableCell>
                <StatusCell user={user} />
              </TableCell>
              <TableCell className="pr-4 text-right">
                <div className="flex flex-wrap justify-end gap-1">
                  <ResendButton user={user} />
                  <Button variant="ghost" size="sm" aria-label={`Editar ${user.nome}`} onClick={() => setEditing(user)}>
                    <Pencil /> <span className="hidden lg:inline">Editar</span>
                  </Button>
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
