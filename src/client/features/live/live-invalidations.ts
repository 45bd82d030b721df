import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { currentUserKey } from "@/features/auth";
import { documentKeys } from "@/features/documents";
import { noticeKeys } from "@/features/notices";
import { signingKeys } from "@/features/documents";
import { patientKeys } from "@/features/patients";
import { userKeys } from "@/features/users";

/** Changes of documents and patients are gathered this long, so a burst refetches once. */
export const DOCUMENT_BATCH_MS = 100;
/** The users list refetches this long after a profile change (spec: 500 ms). */
export const PROFILE_DEBOUNCE_MS = 500;

/**
 * Queries never refetched behind the user's back: each fetch of the signing link is an audit
 * event naming the user; an invitation is read once from its e-mailed link.
 */
function refetchedOnlyOnRequest(key: QueryKey): boolean {
  return (key[0] === documentKeys.all[0] && key[1] === signingKeys.link("")[1]) || key[0] === "invitation";
}

export interface LiveInvalidations {
  document(id: string): void;
  patient(id: string): void;
  profile(id: string): void;
  /** A Feegow failure, an e-mail given up on, a certificate or a system notice (Avisos). */
  notice(id: string): void;
  /** After a reconnect or a `resync`: events may have been missed, so what is on screen refetches. */
  everything(): void;
  dispose(): void;
}

/** Maps live events to TanStack Query invalidations (decision 022), coalesced. */
export function liveInvalidations(
  queryClient: QueryClient,
  currentProfileId: () => string | undefined,
): LiveInvalidations {
  const invalidate = (queryKey: QueryKey) => void queryClient.invalidateQueries({ queryKey });
  const documents = new Set<string>();
  const patients = new Set<string>();
  let noticeChanged = false;
  let profileChanged = false;
  let ownProfileChanged = false;
  let batchTimer: ReturnType<typeof setTimeout> | undefined;
  let profileTimer: ReturnType<typeof setTimeout> | undefined;

  const flushBatch = () => {
    batchTimer = undefined;
    // Avisos derive from documents (viewed, expiring, signed) and from the 'notice' kinds.
    if (documents.size > 0 || noticeChanged) invalidate(noticeKeys.all);
    noticeChanged = false;
    if (documents.size > 0) {
      invalidate(documentKeys.lists());
      invalidate(documentKeys.counters());
      invalidate(documentKeys.recent());
      for (const id of documents) {
        invalidate(documentKeys.detail(id));
        invalidate(signingKeys.signatures(id));
      }
      // Patients carry a document count.
      invalidate(patientKeys.all);
    } else if (patients.size > 0) {
      invalidate(patientKeys.lists());
      invalidate(patientKeys.stats());
      for (const id of patients) invalidate(patientKeys.detail(id));
    }
    documents.clear();
    patients.clear();
  };
  const flushProfiles = () => {
    profileTimer = undefined;
    if (profileChanged) {
      invalidate(userKeys.lists());
      // The responsible-physician choices of the document form list the clinic's professionals.
      invalidate(documentKeys.formOptions());
    }
    if (ownProfileChanged) invalidate(currentUserKey);
    profileChanged = ownProfileChanged = false;
  };
  const batch = () => {
    batchTimer ??= setTimeout(flushBatch, DOCUMENT_BATCH_MS);
  };

  return {
    document(id) {
      documents.add(id);
      batch();
    },
    patient(id) {
      patients.add(id);
      batch();
    },
    notice() {
      noticeChanged = true;
      batch();
    },
    profile(id) {
      profileChanged = true;
      if (id === currentProfileId()) ownProfileChanged = true;
      if (profileTimer) clearTimeout(profileTimer);
      profileTimer = setTimeout(flushProfiles, PROFILE_DEBOUNCE_MS);
    },
    everything() {
      void queryClient.invalidateQueries({ predicate: (query) => !refetchedOnlyOnRequest(query.queryKey) });
    },
    dispose() {
      if (batchTimer) clearTimeout(batchTimer);
      if (profileTimer) clearTimeout(profileTimer);
    },
  };
}
