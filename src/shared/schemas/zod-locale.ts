import { z } from "zod";

/**
 * Zod's fallback messages in plain Portuguese: the schemas carry the spec's own messages;
 * whatever a schema does not name (a wrong type, an unknown option, a size limit) is said here, so no
 * English reaches a screen or an API answer. Installed once by importing this module (server and
 * both client bundles do).
 */
const TYPE_NAMES: Record<string, string> = {
  string: "um texto",
  number: "um número",
  int: "um número inteiro",
  boolean: "verdadeiro ou falso",
  object: "um objeto",
  array: "uma lista",
  date: "uma data",
};

export const ptBrErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "Campo obrigatório";
      return `Valor inválido: informe ${TYPE_NAMES[issue.expected] ?? "um valor válido"}`;
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return `Use no máximo ${max} caracteres`;
      if (issue.origin === "array" || issue.origin === "set") return `Selecione no máximo ${max} itens`;
      return `O valor máximo é ${max}`;
    }
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") return min <= 1 ? "Campo obrigatório" : `Use pelo menos ${min} caracteres`;
      if (issue.origin === "array" || issue.origin === "set")
        return min <= 1 ? "Selecione pelo menos um item" : `Selecione pelo menos ${min} itens`;
      return `O valor mínimo é ${min}`;
    }
    case "invalid_value":
      return "Selecione uma opção válida";
    case "invalid_format":
      switch (issue.format) {
        case "email":
          return "E-mail inválido";
        case "uuid":
        case "guid":
          return "Identificador inválido";
        case "date":
        case "datetime":
          return "Data inválida";
        case "url":
          return "Endereço (URL) inválido";
        default:
          return "Formato inválido";
      }
    case "unrecognized_keys":
      return `Campo não reconhecido: ${issue.keys.join(", ")}`;
    case "not_multiple_of":
      return "Número inválido";
    default:
      return "Valor inválido";
  }
};

z.config({ localeError: ptBrErrorMap });
