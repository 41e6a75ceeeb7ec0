import { z } from 'zod';

export const LoginRequest = z.object({
  // `abort`: an empty e-mail is required, and not also an invalid address.
  email: z.string().trim().min(1, { message: 'Field is required', abort: true }).email('Invalid e-mail address'),
  password: z.string().min(1, 'Field is required'),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const User = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  avatar: z.string(),
});
export type User = z.infer<typeof User>;

export const ProjectSummary = z.object({
  id: z.number().int(),
  name: z.string(),
});
export type ProjectSummary = z.infer<typeof ProjectSummary>;

export const CurrentUserResponse = z.object({
  user: User,
  projects: z.array(ProjectSummary),
});
export type CurrentUserResponse = z.infer<typeof CurrentUserResponse>;

export const LoginResponse = CurrentUserResponse;
export type LoginResponse = CurrentUserResponse;

/**
 * A single sign-on method. `available` is false while its provider could not be reached (the
 * button is shown disabled, with `reason`); `url` starts the sign-in and takes `?return_to=<path>`.
 */
export const SsoMethod = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  available: z.boolean().default(true),
  reason: z.string().optional(),
});
export const SsoMethodsResponse = z.object({ methods: z.array(SsoMethod) });
export type SsoMethodsResponse = z.infer<typeof SsoMethodsResponse>;

/** Shown on the Login page so a newcomer can sign in right after `npm start`. */
export const LoginHintResponse = z.object({
  hint: z.object({ email: z.string(), password: z.string() }).nullable(),
});
export type LoginHintResponse = z.infer<typeof LoginHintResponse>;
