import { useCallback, useState } from 'react';
import type { FhirClient, LoginResponse } from '../../data-provider/client';
import { OperationOutcomeError } from '../../data-provider/outcomes';

export type SignInStep = 'email' | 'password' | 'mfa' | 'profile';

export interface MembershipOption {
  id: string;
  project: string;
  profile: string;
}

export interface SignInState {
  step: SignInStep;
  email: string;
  busy: boolean;
  /** Field errors by field name (the OperationOutcome's expression), and the rest. */
  fieldErrors: Record<string, string>;
  error?: string;
  memberships: MembershipOption[];
}

/** Messages of an OperationOutcome by the field they name; others in `general`. */
export function errorsByField(error: unknown): { fields: Record<string, string>; general?: string } {
  if (!(error instanceof OperationOutcomeError)) {
    return { fields: {}, general: error instanceof Error ? error.message : String(error) };
  }
  const fields: Record<string, string> = {};
  const general: string[] = [];
  for (const issue of error.outcome.issue ?? []) {
    const text = issue.details?.text ?? issue.diagnostics ?? 'Unknown error';
    const field = issue.expression?.[0];
    if (field) fields[field] = text;
    else general.push(text);
  }
  return { fields, general: general.length > 0 ? general.join('; ') : undefined };
}

/** The sign-in sequence (app-spec §2.11, §4): email → password → MFA → profile → code exchange. */
export function useSignIn(client: FhirClient, onSignedIn: () => void) {
  const [state, setState] = useState<SignInState>({
    step: 'email',
    email: '',
    busy: false,
    fieldErrors: {},
    memberships: [],
  });
  const [login, setLogin] = useState<string>();

  const run = useCallback(async (work: () => Promise<void>) => {
    setState((s) => ({ ...s, busy: true, fieldErrors: {}, error: undefined }));
    try {
      await work();
      setState((s) => ({ ...s, busy: false }));
    } catch (error) {
      const { fields, general } = errorsByField(error);
      setState((s) => ({ ...s, busy: false, fieldErrors: fields, error: general }));
    }
  }, []);

  const advance = useCallback(
    async (response: LoginResponse) => {
      setLogin(response.login);
      if (response.code) {
        await client.processCode(response.code);
        onSignedIn();
      } else if (response.mfaRequired) {
        setState((s) => ({ ...s, step: 'mfa' }));
      } else if (response.memberships) {
        const memberships = response.memberships.map((m) => ({
          id: m.id as string,
          project: m.project?.display ?? m.project?.reference ?? '',
          profile: m.profile?.display ?? m.profile?.reference ?? '',
        }));
        setState((s) => ({ ...s, step: 'profile', memberships }));
      }
    },
    [client, onSignedIn],
  );

  return {
    state,
    submitEmail: (email: string) =>
      run(async () => {
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
          setState((s) => ({ ...s, fieldErrors: { email: 'Invalid email address' } }));
          throw new OperationOutcomeError({
            resourceType: 'OperationOutcome',
            issue: [
              { severity: 'error', code: 'invalid', details: { text: 'Invalid email address' }, expression: ['email'] },
            ],
          });
        }
        setState((s) => ({ ...s, step: 'password', email: email.trim() }));
      }),
    submitPassword: (password: string, remember: boolean) =>
      run(async () => advance(await client.startLogin({ email: state.email, password, remember }))),
    submitMfa: (token: string) => run(async () => advance(await client.verifyMfa(login as string, token))),
    chooseProfile: (membershipId: string) =>
      run(async () => advance(await client.chooseProfile(login as string, membershipId))),
    back: () => setState((s) => ({ ...s, step: 'email', fieldErrors: {}, error: undefined })),
  };
}
