import { passwordProblem, usernameProblem } from '../../common/rules.js';
import { isRole } from '../auth/permissions.js';
import type { Role } from '../db/schema.js';
import { invalid } from '../errors.js';

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
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('Send the user as a JSON object.');
  const b = body as Record<string, unknown>;
  const problems: string[] = [];
  const out: UserInput = {};

  const str = (key: string, label: string, required: boolean): string | undefined => {
    const v = b[key];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
      if (required) problems.push(`${label} is required`);
      return undefined;
    }
    if (typeof v !== 'string') {
      problems.push(`${label} must be text`);
      return undefined;
    }
    return v.trim();
  };

  const requireAll = mode === 'create';
  const username = str('username', 'Username', requireAll);
  if (username !== undefined) {
    const problem = usernameProblem(username);
    if (problem) problems.push(problem);
    else out.username = username;
  }
  const fullName = str('full_name', 'Full name', requireAll);
  if (fullName !== undefined) {
    if (fullName.length > 100) problems.push('Full name must be at most 100 characters');
    else out.full_name = fullName;
  }
  const email = str('email', 'Email', requireAll);
  if (email !== undefined) {
    if (!EMAIL.test(email) || email.length > 254) problems.push('Email must be a valid email address');
    else out.email = email;
  }
  if (b.role !== undefined) {
    if (!isRole(b.role)) problems.push('Role must be one of family, bride, groom or admin');
    else out.role = b.role;
  } else if (mode === 'create') {
    out.role = 'family';
  }
  if (b.is_active !== undefined) {
    if (typeof b.is_active !== 'boolean') problems.push('is_active must be true or false');
    else out.is_active = b.is_active;
  } else if (mode === 'create') {
    out.is_active = true;
  }
  const pw = b.password;
  if (pw === undefined || pw === null || pw === '') {
    if (mode === 'create') problems.push('Password is required');
  } else if (typeof pw !== 'string') {
    problems.push('Password must be text');
  } else {
    const problem = passwordProblem(pw);
    if (problem) problems.push(problem);
    else out.password = pw;
  }
  if (problems.length > 0) throw invalid(problems.join('. ') + '.', { problems });
  return out;
}
