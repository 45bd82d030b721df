import { z } from "zod";
import { isValidCep } from "../br/cep.js";
import { isValidCnpj, normalizeCnpj } from "../br/cnpj.js";
import { isValidCpf, normalizeCpf } from "../br/cpf.js";
import { isValidPhone, normalizePhone } from "../br/phone.js";
import { UF_SIGLAS } from "../reference/ufs.js";

/** A required text field: trimmed, with a pt-BR message when blank. */
export const requiredText = (message: string, max = 200) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `Use no máximo ${max} caracteres`);

/** An optional text field: blank becomes undefined. */
export const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, `Use no máximo ${max} caracteres`)
    .optional()
    .transform((value) => (value ? value : undefined));

export const emailField = z
  .string({ error: "Informe o e-mail" })
  .trim()
  .min(1, { error: "Informe o e-mail", abort: true })
  .pipe(z.email("E-mail inválido"))
  .transform((value) => value.toLowerCase());

export const cpfField = z
  .string({ error: "Informe o CPF" })
  .trim()
  .min(1, { error: "Informe o CPF", abort: true })
  .refine(isValidCpf, "CPF inválido")
  .transform(normalizeCpf);

export const cnpjField = z
  .string({ error: "Informe o CNPJ" })
  .trim()
  .min(1, { error: "Informe o CNPJ", abort: true })
  .refine(isValidCnpj, "CNPJ inválido")
  .transform(normalizeCnpj);

export const cepField = z
  .string({ error: "Informe o CEP" })
  .trim()
  .min(1, { error: "Informe o CEP", abort: true })
  .refine(isValidCep, "CEP inválido")
  .transform((value) => value.replace(/\D/g, ""));

export const optionalPhoneField = z
  .string()
  .trim()
  .optional()
  .refine((value) => !value || isValidPhone(value), "Telefone inválido")
  .transform((value) => (value ? normalizePhone(value) : undefined));

export const ufField = z.enum(UF_SIGLAS, { error: "Selecione a UF" });

export const optionalCnesField = z
  .string()
  .trim()
  .optional()
  .refine((value) => !value || /^\d{7}$/.test(value), "O CNES tem 7 dígitos")
  .transform((value) => (value ? value : undefined));

export const PASSWORD_MIN_LENGTH = 6;

export const passwordField = z
  .string({ error: "Informe a senha" })
  .min(1, "Informe a senha")
  .min(PASSWORD_MIN_LENGTH, `A senha deve ter pelo menos ${PASSWORD_MIN_LENGTH} caracteres`)
  .max(200, "A senha é longa demais");
