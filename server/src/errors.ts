/** Typed application errors (STYLE §4): services throw them, the one error handler maps them. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message = 'Vous devez vous connecter.') => new AppError(401, message);
export const forbidden = (message = "Vous n'avez pas accès à cette ressource.") => new AppError(403, message);
export const notFound = (message = 'Ressource introuvable.') => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooMany = (message = 'Trop de tentatives. Réessayez dans une minute.') => new AppError(429, message);
