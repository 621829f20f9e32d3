import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser'
import { api } from './api.ts'

/** What a sign-in answers: the person, or (password right, passkey required) the passkey challenge. */
export type SignInAnswer =
  { id: number; name: string; role: string } | { secondFactor: 'passkey'; options: PublicKeyCredentialRequestOptionsJSON }

export const needsPasskey = (answer: SignInAnswer): answer is Extract<SignInAnswer, { secondFactor: 'passkey' }> => 'secondFactor' in answer

/** Answers a sign-in challenge with a passkey of this device and signs in (alone, or after the password). */
export async function answerWithPasskey(options: PublicKeyCredentialRequestOptionsJSON): Promise<void> {
  const response = await startAuthentication({ optionsJSON: options })
  await api('POST', '/admin/api/passkeys/sign-in', { response })
}

/** Signs in with a passkey: any discoverable one, or only the account's when `email` is given. */
export async function signInWithPasskey(email: string): Promise<void> {
  const options = await api<PublicKeyCredentialRequestOptionsJSON>('POST', '/admin/api/passkeys/sign-in/options', email ? { email } : {})
  await answerWithPasskey(options)
}

/** Creates a passkey on this device for the signed-in account and stores it under `name`. */
export async function addPasskey(name: string): Promise<void> {
  const options = await api<PublicKeyCredentialCreationOptionsJSON>('POST', '/admin/api/passkeys/options', {})
  const response = await startRegistration({ optionsJSON: options })
  await api('POST', '/admin/api/passkeys/save', { name, response })
}
