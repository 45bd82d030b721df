import { z } from "zod";
import { text } from "./safe-input.js";
import { emailField } from "./common.js";
import { passwordField } from "./password.js";

export const signInSchema = z.object({
  email: emailField,
  password: text({ error: "Informe a senha" }).min(1, "Informe a senha").max(200),
});
export type SignInInput = z.input<typeof signInSchema>;

export const passwordResetRequestSchema = z.object({ email: emailField });

export const passwordResetConfirmSchema = z
  .object({
    token: text().min(20, "Link inválido").max(200),
    password: passwordField,
    confirmPassword: text().min(1, "Confirme a senha"),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ["confirmPassword"],
    message: "As senhas não coincidem",
  });
export type PasswordResetConfirmInput = z.input<typeof passwordResetConfirmSchema>;
