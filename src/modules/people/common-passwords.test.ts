import { describe, expect, test } from 'bun:test'
import { isCommonPassword } from './common-passwords.ts'
import { checkPassword, MAX_PASSWORD_LENGTH } from './passwords.ts'

describe('the breach-list check', () => {
  test('refuses listed passwords as they are dressed: case, leetspeak, digits and symbols around, repeats', async () => {
    for (const password of [
      '1qaz2wsx3edc',
      'Password1234',
      'P@ssw0rd2024!',
      '2024iloveyou!!',
      'dragondragon',
      'monkeymonkey1',
      'Sunshine2023!',
    ])
      expect([password, await isCommonPassword(password)]).toEqual([password, true])
  })

  test('lets long passphrases and random strings through, and ignores short cores inside long ones', async () => {
    for (const password of [
      'a long and private passphrase',
      'correct horse battery staple',
      'Xk9#mq2Lw8vZ',
      '1234abc5678!',
      '雨后的山路很安静',
    ])
      expect([password, await isCommonPassword(password)]).toEqual([password, false])
  })

  test('answers at the length limit on adversarial shapes (one linear pass each)', async () => {
    for (const password of [
      'a'.repeat(MAX_PASSWORD_LENGTH),
      'ab'.repeat(128),
      '1'.repeat(255) + 'a',
      '!@'.repeat(128),
      'a'.repeat(255) + 'b',
    ])
      expect(typeof (await isCommonPassword(password))).toBe('boolean')
  })

  test('checkPassword refuses a breached password with its own code, naming the field', async () => {
    const refusal = (await checkPassword('P@ssw0rd2024!', 'newPassword').catch((error: unknown) => error)) as {
      code: string
      data: { errors: { field: string }[] }
    }
    expect(refusal?.code).toBe('PASSWORD_BREACHED')
    expect(refusal?.data.errors[0]!.field).toBe('newPassword')
    await checkPassword('a long and private passphrase')
  })
})
