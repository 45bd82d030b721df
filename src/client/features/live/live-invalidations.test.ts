import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { currentUserKey } from "@/features/auth";
import { documentKeys } from "@/features/documents";
import { noticeKeys } from "@/features/notices";
import { signingKeys } from "@/features/documents";
import { patientKeys } from "@/features/patients";
import { userKeys } from "@/features/users";
import { DOCUMENT_BATCH_MS, liveInvalidations, PROFILE_DEBOUNCE_MS } from "./live-invalidations";

const me = "perfil-eu";
let queryClient: QueryClient;

/** Seeds fresh data under each key; `stale` then tells which ones an event invalidated. */
function seed(keys: QueryKey[]) {
  for (const key of keys) queryClient.setQueryData(key, { seeded: true });
}
const stale = (key: QueryKey) => queryClient.getQueryState(key)?.isInvalidated ?? false;

const listQuery = { q: "", status: "todos" } as never;
const keys = {
  documentList: documentKeys.list(listQuery),
  counters: documentKeys.counters(),
  recent: documentKeys.recent(),
  detailA: documentKeys.detail("doc-a"),
  detailB: documentKeys.detail("doc-b"),
  signaturesA: signingKeys.signatures("doc-a"),
  linkA: signingKeys.link("doc-a"),
  patientList: patientKeys.list(listQuery),
  patientDetail: patientKeys.detail("pac-1"),
  users: userKeys.list(listQuery),
  me: currentUserKey,
  invitation: ["invitation", "token"],
  notices: noticeKeys.list(),
  unreadNotices: noticeKeys.unread(),
};

beforeEach(() => {
  vi.useFakeTimers();
  queryClient = new QueryClient();
  seed(Object.values(keys));
});
afterEach(() => {
  queryClient.clear();
  vi.useRealTimers();
});

describe("liveInvalidations", () => {
  it("a document event refetches the lists, counters, dashboard and that document — never its audited signing link", () => {
    const live = liveInvalidations(queryClient, () => me);
    live.document("doc-a");
    expect(stale(keys.documentList)).toBe(false);
    vi.advanceTimersByTime(DOCUMENT_BATCH_MS);
    for (const key of [keys.documentList, keys.counters, keys.recent, keys.detailA, keys.signaturesA, keys.patientList])
      expect(stale(key), JSON.stringify(key)).toBe(true);
    for (const key of [keys.detailB, keys.linkA, keys.users, keys.me])
      expect(stale(key), JSON.stringify(key)).toBe(false);
  });

  it("a profile event refetches the users list 500 ms after the last one, and the current user only when it is them", () => {
    const live = liveInvalidations(queryClient, () => me);
    live.profile("someone");
    vi.advanceTimersByTime(PROFILE_DEBOUNCE_MS - 1);
    live.profile("someone-else");
    vi.advanceTimersByTime(PROFILE_DEBOUNCE_MS - 1);
    expect(stale(keys.users)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(stale(keys.users)).toBe(true);
    expect(stale(keys.me)).toBe(false);
    live.profile(me);
    vi.advanceTimersByTime(PROFILE_DEBOUNCE_MS);
    expect(stale(keys.me)).toBe(true);
  });

  it("a patient event refetches patients, not documents", () => {
    const live = liveInvalidations(queryClient, () => me);
    live.patient("pac-1");
    vi.advanceTimersByTime(DOCUMENT_BATCH_MS);
    expect(stale(keys.patientList)).toBe(true);
    expect(stale(keys.patientDetail)).toBe(true);
    expect(stale(keys.documentList)).toBe(false);
  });

  it("after a reconnect everything refetches but the signing link and the invitation", () => {
    liveInvalidations(queryClient, () => me).everything();
    for (const [name, key] of Object.entries(keys))
      expect(stale(key), name).toBe(name !== "linkA" && name !== "invitation");
  });

  it("Avisos and its badge refetch on a document event and on a notice event, not on a patient's", () => {
    const live = liveInvalidations(queryClient, () => me);
    live.patient("pac-1");
    vi.advanceTimersByTime(DOCUMENT_BATCH_MS);
    expect(stale(keys.unreadNotices)).toBe(false);
    live.notice("upload-1");
    expect(stale(keys.unreadNotices)).toBe(false);
    vi.advanceTimersByTime(DOCUMENT_BATCH_MS);
    expect(stale(keys.unreadNotices)).toBe(true);
    expect(stale(keys.notices)).toBe(true);
    expect(stale(keys.documentList)).toBe(false);

    seed([keys.notices, keys.unreadNotices]);
    live.document("doc-a");
    vi.advanceTimersByTime(DOCUMENT_BATCH_MS);
    expect(stale(keys.unreadNotices)).toBe(true);
    expect(stale(keys.notices)).toBe(true);
  });
});
