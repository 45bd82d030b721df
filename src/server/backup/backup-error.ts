/**
 * A backup or restore that cannot go on, with the pt-BR message the operator reads. Thrown before
 * anything is touched whenever the problem can be known in advance (decision 027).
 */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

/** The messages, in one place (the tests match them). */
export const BACKUP_MESSAGES = {
  notABackup: "Este arquivo não é um backup do Consentir (ou o começo dele foi alterado).",
  unsupportedFormat: (version: number) =>
    `Este backup usa o formato ${version}, mais novo do que esta versão do Consentir entende. Atualize o Consentir antes de restaurar.`,
  otherKey: (source: string) =>
    `Este backup foi cifrado com outra chave: ${source} desta instalação não é a mesma da instalação que o fez. Nada foi alterado.`,
  needsBackupKey:
    "Este backup foi cifrado com BACKUP_KEY: defina a mesma BACKUP_KEY para restaurá-lo. Nada foi alterado.",
  needsInstanceKey: (dataDir: string) =>
    `Este backup foi cifrado com a chave da instalação de origem (APP_SECRET ou secret.key), que não foi encontrada aqui. ` +
    `Defina a mesma APP_SECRET ou copie o secret.key da instalação original para ${dataDir}/secret.key. Nada foi alterado.`,
  noKeyForBackup: (dataDir: string) =>
    `Sem chave para cifrar o backup: não há APP_SECRET nem ${dataDir}/secret.key. Rode com o mesmo DATA_DIR (ou APP_SECRET) do app, ou defina BACKUP_KEY.`,
  tampered: "O backup está corrompido ou foi alterado (a verificação criptográfica falhou). Nada foi alterado.",
  truncated:
    "O backup está incompleto (o arquivo termina antes do fim marcado): provavelmente foi copiado pela metade. Nada foi alterado.",
  trailingData: "O backup tem dados depois do seu fim marcado: o arquivo foi alterado. Nada foi alterado.",
  partMismatch: (part: string) => `O backup não confere com o próprio manifesto (${part}). Nada foi alterado.`,
  newerSchema: (tag: string) =>
    `Este backup foi feito por uma versão mais nova do Consentir (banco na migração ${tag}). Atualize o Consentir antes de restaurá-lo. Nada foi alterado.`,
  unknownSchema:
    "Este backup foi feito por uma versão do Consentir cujas migrações não são as desta (outra ramificação do código). Nada foi alterado.",
  targetNotEmpty: (what: string) =>
    `O destino não está vazio (${what}). A restauração só escreve num destino vazio; use --force para substituí-lo. Nada foi alterado.`,
  appRunning: (dataDir: string) =>
    `O app está rodando com ${dataDir}: pare-o antes de restaurar (o banco embutido aceita um processo por vez).`,
  incompatibleTable: (table: string, detail: string) =>
    `A tabela ${table} do backup não corresponde à desta versão (${detail}). Nada foi alterado.`,
} as const;
