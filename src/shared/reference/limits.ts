/** Máximo de especialidades por profissional ('Máximo de 2 especialidades permitidas'). */
export const MAX_ESPECIALIDADES = 2;

/** Máximo de áreas de atuação por especialidade ('Máximo de 3 áreas de atuação por especialidade'). */
export const MAX_AREAS_POR_ESPECIALIDADE = 3;
