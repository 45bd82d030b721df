import type { SignedIn } from "./sessions.js";
import { newClinic, newStaff } from "./sessions.js";
import { publishedTemplateVersion } from "./signing.js";
import type { TestContext } from "./test-app.js";

/** A clinic with a published template, and another clinic (for the other tenant's ids). */
export interface TwoClinics {
  clinic: SignedIn;
  other: SignedIn;
  /** The current version of `clinic`'s published template. */
  versionId: string;
}

/** With `frontDesk`: a receptionist of `clinic` and a published template of `other` too. */
export interface FrontDesk {
  receptionist: SignedIn;
  otherVersionId: string;
}

/** Two clinics on one test app (the set-up many signing tests begin with). */
export async function twoClinics(on: TestContext): Promise<TwoClinics>;
export async function twoClinics(on: TestContext, options: { frontDesk: true }): Promise<TwoClinics & FrontDesk>;
export async function twoClinics(
  on: TestContext,
  options: { frontDesk?: boolean } = {},
): Promise<TwoClinics & Partial<FrontDesk>> {
  const clinic = await newClinic(on.app);
  const other = await newClinic(on.app);
  const receptionist = options.frontDesk
    ? await newStaff(on.app, on.database, clinic.tenantId, "atendente")
    : undefined;
  const versionId = await publishedTemplateVersion(on.app, clinic);
  const otherVersionId = options.frontDesk ? await publishedTemplateVersion(on.app, other) : undefined;
  return { clinic, other, versionId, receptionist, otherVersionId };
}
