import { describe, expect, it } from "vitest";
import { contactSince, type PatientRecordEvent } from "./contact-since.js";

const created: PatientRecordEvent = {
  action: "patient.created",
  created_at: "2026-10-01T12:00:00.000Z",
  actor: "Maria Souza",
};
const phoneChanged: PatientRecordEvent = {
  action: "patient.updated",
  created_at: "2026-11-01T12:00:00.000Z",
  actor: "João Lima",
  campos: ["telefone"],
};
const emailChanged: PatientRecordEvent = {
  action: "patient.updated",
  created_at: "2026-11-20T09:58:00.000Z",
  actor: "Carla Dias",
  campos: ["nome", "email"],
};
const viewed: PatientRecordEvent = {
  action: "patient.viewed",
  created_at: "2026-11-20T09:59:00.000Z",
  actor: "Carla Dias",
};

describe("since when a contact has been on the patient's record", () => {
  it("since the record was created, when nothing changed that contact after", () => {
    expect(contactSince([created, phoneChanged, viewed], "email", "2026-11-20T10:00:00.000Z")).toEqual({
      em: created.created_at,
      por: "Maria Souza",
      como: "cadastro",
    });
  });

  it("since the last change of that very contact before the code was sent", () => {
    expect(contactSince([emailChanged, created, phoneChanged], "email", "2026-11-20T10:00:00.000Z")).toEqual({
      em: emailChanged.created_at,
      por: "Carla Dias",
      como: "alteracao",
    });
    expect(contactSince([created, phoneChanged, emailChanged], "telefone", "2026-11-20T10:00:00.000Z")).toEqual({
      em: phoneChanged.created_at,
      por: "João Lima",
      como: "alteracao",
    });
  });

  it("ignores what happened after the code was sent", () => {
    expect(contactSince([created, emailChanged], "email", "2026-11-15T10:00:00.000Z")).toEqual({
      em: created.created_at,
      por: "Maria Souza",
      como: "cadastro",
    });
  });

  it("says nothing when the trail has no record of it", () => {
    expect(contactSince([viewed], "email", "2026-11-20T10:00:00.000Z")).toBeNull();
    expect(contactSince([created], "email", "2026-09-01T10:00:00.000Z")).toBeNull();
  });
});
