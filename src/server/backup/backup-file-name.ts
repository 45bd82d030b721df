/** Backup files: `consentir-backup-<UTC time>.cbk`; in progress: a hidden `.partial` next to it. */
const NAME = /^consentir-backup-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})Z\.cbk$/;
const PARTIAL = /^\.consentir-backup-.*\.partial$/;

export function backupFileName(at: Date): string {
  return `consentir-backup-${at.toISOString().replace(/:/g, "-")}.cbk`;
}

/** The time in a backup file's name, or null for any other file. */
export function backupTimeOf(name: string): Date | null {
  const match = NAME.exec(name);
  if (!match) return null;
  const [, day, hh, mm, ss, ms] = match;
  const time = new Date(`${day}T${hh}:${mm}:${ss}.${ms}Z`);
  return Number.isNaN(time.getTime()) ? null : time;
}

export function partialFileName(finalName: string, pid: number, random: string): string {
  return `.${finalName}.${pid}.${random}.partial`;
}

export const isPartialFile = (name: string): boolean => PARTIAL.test(name);
