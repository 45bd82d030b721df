import type { BenchCase } from "../run.js";
import { round, summarize } from "../stats.js";
import { BENCH_PASSWORD, benchClinic, benchDatabases, startBenchTarget } from "../support/bench-app.js";
import { signatureDataUrl } from "../../tests/helpers/signing.js";
import { callAsThePage } from "../support/busy-retry-call.js";

const SIGNERS = 100;

/** Valid CPFs for the patients (check digits computed). */
function cpf(n: number): string {
  const digits = String(200_000_000 + n)
    .slice(0, 9)
    .split("")
    .map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((acc, d, i) => acc + d * (length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join("");
}

export default {
  name: "signers-load",
  description: "100 pacientes assinando ao mesmo tempo documentos distintos, pela API HTTP do servidor (erros = 0)",
  async run() {
    const results: Record<string, unknown> = {};
    for (const label of benchDatabases()) {
      const run = await signAtOnce(label);
      const prefix = label === "pglite" ? "" : "postgres_";
      for (const [key, value] of Object.entries(run)) results[`${prefix}${key}`] = value;
    }
    return results as { median_ms: number; p95_ms: number };
  },
} satisfies BenchCase;

/** Sets up SIGNERS sent documents, then signs them all at once over HTTP. */
async function signAtOnce(label: "pglite" | "postgres") {
  const target = await startBenchTarget(label);
  try {
    const clinic = await benchClinic(target, 7);
    const staff = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${target.baseUrl}${path}`, {
        method,
        headers: { cookie: clinic.cookie, "content-type": "application/json", origin: target.baseUrl },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${await response.text()}`);
      return response.json() as Promise<Record<string, any>>;
    };
    const me = (await staff("GET", "/api/auth/me")).profile as { id: string };
    const specialties = (await staff("GET", "/api/templates/specialties")).items as string[];
    const template = await staff("POST", "/api/templates", {
      titulo: "TCLE",
      especialidade: specialties[0],
      categoria: "Consentimento",
      estrutura: {
        title: "Termo — {{procedimento}}",
        introduction: "Eu, {{paciente_nome}}, CPF {{paciente_cpf}}, autorizo o procedimento.",
        sections: [],
      },
    });
    const { versao_atual_id } = await staff("POST", `/api/templates/${template.id}/status`, { status: "published" });
    const signers: { token: string; nome: string; cpf: string }[] = [];
    for (let i = 0; i < SIGNERS; i++) {
      const nome = `Paciente Carga ${i}`;
      const patient = await staff("POST", "/api/patients", { nome, cpf: cpf(i) });
      const document = await staff("POST", "/api/documents", {
        paciente_id: patient.id,
        template_version_id: versao_atual_id,
        titulo: `Termo ${i}`,
        procedimento: "Toxina botulínica",
        medico_responsavel_id: me.id,
        permitir_pendencias: true,
      });
      await staff("POST", `/api/documents/${document.id}/professional-signature`, { senha: BENCH_PASSWORD });
      const link = await staff("POST", `/api/documents/${document.id}/send`, {});
      signers.push({ token: new URL(link.link as string).pathname.split("/").pop() ?? "", nome, cpf: cpf(i) });
    }
    const signature = signatureDataUrl();
    let errors = 0;
    let turnedAway = 0;
    const durations: number[] = [];
    const started = performance.now();
    // Each call as the signing page makes it: a 503 with Retry-After is waited out and sent again
    // (counted apart: the page shows "aguarde", not an error); anything else but 200 is an error.
    const publicCall = async (token: string, init?: RequestInit) => {
      const served = await callAsThePage(() => fetch(`${target.baseUrl}/api/public/sign/${token}`, init));
      turnedAway += served.turnedAway;
      return served;
    };
    await Promise.all(
      signers.map(async (signer) => {
        const t0 = performance.now();
        try {
          const page = await publicCall(signer.token);
          if (page.response.status !== 200) throw new Error(`GET ${page.response.status}`);
          const body = JSON.parse(page.text) as { documento: { conteudo_sha256: string } };
          const signed = await publicCall(signer.token, {
            method: "POST",
            headers: { "content-type": "application/json", origin: target.baseUrl },
            body: JSON.stringify({
              nome: signer.nome,
              cpf: signer.cpf,
              email: "carga@exemplo.com.br",
              assinatura: signature,
              conteudo_sha256: body.documento.conteudo_sha256,
              aceite_eletronico: true,
            }),
          });
          if (signed.response.status !== 200) errors += 1;
        } catch {
          errors += 1;
        }
        durations.push(performance.now() - t0);
      }),
    );
    const wall = performance.now() - started;
    const stats = summarize(durations);
    return {
      median_ms: round(stats.median),
      p95_ms: round(stats.p95),
      errors,
      busy_503: turnedAway,
      signers: SIGNERS,
      wall_ms: round(wall),
    };
  } finally {
    await target.close();
  }
}
