export { onlyDigits, isRepeatedChar } from "./digits.js";
export { cpfCheckDigits, formatCpf, isValidCpf, normalizeCpf } from "./cpf.js";
export { cnpjCheckDigits, formatCnpj, isValidCnpj, normalizeCnpj } from "./cnpj.js";
export { formatCep, isValidCep, normalizeCep } from "./cep.js";
export { BRAZIL_DDDS, formatPhone, isValidPhone, normalizePhone } from "./phone.js";
export { maskCep, maskCnes, maskCnpj, maskCpf, maskPhone } from "./masks.js";
