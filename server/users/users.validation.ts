import { passwordProblem, usernameProblem } from '../../common/rules.js';
import { isRole } from '../auth/permissions.js';
import type { Role } from '../db/schema.js';
import { msg, type Message } from '../../common/languages.js';
import { invalid, invalidAll } from '../errors.js';

export interface UserInput {
  username?: string;
  email?: string;
  full_name?: string;
  role?: Role;
  is_active?: boolean;
  password?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Validates the user form (SPEC §5). On create every field but is_active and role is
 * required; on edit a blank or absent password keeps the current one.
 */
export function parseUserInput(body: unknown, mode: 'create' | 'edit'): UserInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('errors.users.not_object');
  const b = body as Record<string, unknown>;
  const problems: Message[] = [];
  const out: UserInput = {};

  const str = (key: string, field: Message, required: boolean): string | undefined => {
    const v = b[key];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
      if (required) problems.push(msg('errors.rule.required', { field }));
      return undefined;
    }
    if (typeof v !== 'string') {
      problems.push(msg('errors.rule.text', { field }));
      return undefined;
    }
    return v.trim();
  };

  const requireAll = mode === 'create';
  const username = str('username', msg('errors.field.username'), requireAll);
  if (username !== undefined) {
    const problem = usernameProblem(username);
    if (problem) problems.push(problem);
    else out.username = username;
  }
  const fullName = str('full_name', msg('errors.field.full_name'), requireAll);
  if (fullName !== undefined) {
    if (fullName.length > 100) problems.push(msg('errors.rule.max_chars', { field: msg('errors.field.full_name'), max: 100 }));
    else out.full_name = fullName;
  }
  const email = str('email', msg('errors.field.email'), requireAll);
  if (email !== undefined) {
    if (!EMAIL.test(email) || email.length > 254) problems.push(msg('errors.users.email_invalid'));
    else out.email = email;
  }
  if (b.role !== undefined) {
    if (!isRole(b.role)) problems.push(msg('errors.users.role_invalid'));
    else out.role = b.role;
  } else if (mode === 'create') {
    out.role = 'family';
  }
  if (b.is_active !== undefined) {
    if (typeof b.is_active !== 'boolean') problems.push(msg('errors.rule.boolean', { field: 'is_active' }));
    else out.is_active = b.is_active;
  } else if (mode === 'create') {
    out.is_active = true;
  }
  const pw = b.password;
  if (pw === undefined || pw === null || pw === '') {
    if (mode === 'create') problems.push(msg('errors.rule.required', { field: msg('errors.field.password') }));
  } else if (typeof pw !== 'string') {
    problems.push(msg('errors.rule.text', { field: msg('errors.field.password') }));
  } else {
    const problem = passwordProblem(pw);
    if (problem) problems.push(problem);
    else out.password = pw;
  }
  if (problems.length > 0) throw invalidAll(problems);
  return out;
}
