/**
 * A throwaway WordPress for scripts/wxr-wordpress-check.ts: Debian's `wordpress` (6.1) and MariaDB,
 * installed with apt-get when missing, a database in a temp folder served on a Unix socket only
 * (no network), a copy of WordPress with its own wp-config.php, WordPress installed, and the
 * wordpress-importer checkout at `importer` as its plugin. `stop()` ends the database and removes
 * everything.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const PACKAGES = ['php-cli', 'php-xml', 'php-mysql', 'wordpress', 'mariadb-server']

function run(command: string[], cwd?: string): string {
  const done = Bun.spawnSync(command, { cwd, stderr: 'pipe', stdout: 'pipe' })
  if (!done.success) throw new Error(`${command.join(' ')}: ${done.stderr.toString()}${done.stdout.toString()}`)
  return done.stdout.toString()
}

/** php (with SimpleXML and mysqli), WordPress and MariaDB, from Debian when any is missing. */
export function ensurePackages(): void {
  const php = Bun.which('php') ? Bun.spawnSync(['php', '-m']).stdout.toString() : ''
  if (Bun.which('mariadbd') && php.includes('SimpleXML') && php.includes('mysqli') && Bun.file('/usr/share/wordpress/wp-settings.php').size)
    return
  console.log(`installing ${PACKAGES.join(', ')} (apt-get)…`)
  run(['apt-get', 'install', '-y', '--no-install-recommends', ...PACKAGES])
}

export async function startWordpress(importer: string): Promise<{ dir: string; stop(): Promise<void> }> {
  ensurePackages()
  const base = mkdtempSync(join(tmpdir(), 'folio-wordpress-'))
  const [data, socket, dir] = [join(base, 'db'), join(base, 'db.sock'), join(base, 'wordpress')]
  run(['mariadb-install-db', '--user=root', `--datadir=${data}`, '--skip-test-db'])
  const db = Bun.spawn(['mariadbd', '--user=root', `--datadir=${data}`, `--socket=${socket}`, '--skip-networking'], {
    stdout: 'ignore',
    stderr: 'ignore',
  })
  const stop = async () => {
    db.kill()
    await db.exited
    rmSync(base, { recursive: true, force: true })
  }
  try {
    for (let i = 0; ; i++) {
      if (Bun.spawnSync(['mariadb', `--socket=${socket}`, '-uroot', '-e', 'SELECT 1']).success) break
      if (i === 100) throw new Error('MariaDB did not start')
      await Bun.sleep(100)
    }
    run([
      'mariadb',
      `--socket=${socket}`,
      '-uroot',
      '-e',
      "CREATE DATABASE wp; CREATE USER 'wp'@'localhost' IDENTIFIED BY 'wp'; GRANT ALL ON wp.* TO 'wp'@'localhost';",
    ])
    cpSync('/usr/share/wordpress', dir, { recursive: true, dereference: true })
    rmSync(join(dir, 'wp-content', 'plugins', 'akismet'), { recursive: true, force: true })
    mkdirSync(join(dir, 'wp-content', 'uploads'), { recursive: true })
    cpSync(join(importer, 'src'), join(dir, 'wp-content', 'plugins', 'wordpress-importer', 'src'), { recursive: true })
    cpSync(join(importer, 'wordpress-importer.php'), join(dir, 'wp-content', 'plugins', 'wordpress-importer', 'wordpress-importer.php'))
    writeFileSync(
      join(dir, 'wp-config.php'),
      `<?php
define( 'DB_NAME', 'wp' ); define( 'DB_USER', 'wp' ); define( 'DB_PASSWORD', 'wp' );
define( 'DB_HOST', 'localhost:${socket}' ); define( 'DB_CHARSET', 'utf8mb4' ); define( 'DB_COLLATE', '' );
$table_prefix = 'wp_';
define( 'WP_HOME', 'http://localhost' ); define( 'WP_SITEURL', 'http://localhost' );
define( 'WP_CONTENT_DIR', __DIR__ . '/wp-content' );
if ( ! defined( 'ABSPATH' ) ) define( 'ABSPATH', __DIR__ . '/' );
require_once ABSPATH . 'wp-settings.php';
`,
    )
    // The installing user has a login no export names, so an author without a login (a Folio post
    // without an author) is told apart from one the file names.
    run(
      [
        'php',
        '-r',
        `define('WP_INSTALLING', true); $_SERVER['HTTP_HOST'] = 'localhost'; require 'wp-load.php'; require_once ABSPATH . 'wp-admin/includes/upgrade.php'; wp_install('Check', '${INSTALLER}', 'check@example.org', false, '', wp_generate_password());`,
      ],
      dir,
    )
    return { dir, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** The login of the user WordPress is installed with: the importer gives it every post whose author it cannot create. */
export const INSTALLER = 'wordpress-check-installer'
