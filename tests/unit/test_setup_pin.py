# SPDX-License-Identifier: GPL-2.0
"""./kshim setup's release pin (ensure_packages() in ./kshim): a pinned
package at another version is replaced only by an explicit setup as root,
with --allow-downgrades; otherwise it is named in a note and used; a
pinned version gone from the archive falls back to the newest, said in a
WARNING. dpkg-query, apt-get and the user id are stand-ins here: nothing
is installed."""

import importlib.machinery
import importlib.util
import io
import os
import sys
import unittest
from contextlib import redirect_stdout
from unittest import mock

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
	os.path.abspath(__file__))))


def load_kshim():
	loader = importlib.machinery.SourceFileLoader(
		'kshim_cmd', os.path.join(REPO, 'kshim'))
	spec = importlib.util.spec_from_loader('kshim_cmd', loader)
	mod = importlib.util.module_from_spec(spec)
	loader.exec_module(mod)
	return mod


K = load_kshim()
PKG = 'linux-source-6.12'
WANT = K.PINNED[PKG]
OTHER = '6.12.999-1~deb12u1'


class Machine:
	"""Every package installed, PKG at version HAVE; apt-get calls are
	recorded, and one naming the pinned version fails when the archive
	lacks it."""

	def __init__(self, have, archive_has_pin=True):
		self.versions = dict((p, '1') for p in K.PACKAGES)
		self.versions[PKG] = have
		self.archive_has_pin = archive_has_pin
		self.apt = []

	def installed_version(self, pkg):
		return self.versions.get(pkg)

	def run(self, cmd, env_extra=None, quiet=False):
		self.apt.append(cmd)
		return 0

	def apt_install(self, specs, extra=()):
		self.apt.append(['apt-get', 'install'] + list(extra) + specs)
		for s in specs:
			name, _, ver = s.partition('=')
			if ver and not self.archive_has_pin:
				return 100
			self.versions[name] = ver or '6.12.1000-1'
		return 0


def setup(machine, explicit, uid):
	out = io.StringIO()
	with mock.patch.object(K, 'installed_version',
			       machine.installed_version), \
	     mock.patch.object(K, 'run', machine.run), \
	     mock.patch.object(K, 'apt_install', machine.apt_install), \
	     mock.patch.object(K.os, 'geteuid', lambda: uid), \
	     mock.patch.object(K.shutil, 'which', lambda c: '/usr/bin/' + c), \
	     redirect_stdout(out):
		K.ensure_packages(explicit)
	return out.getvalue()


class TestPin(unittest.TestCase):
	def test_pinned_version_installed_says_so(self):
		m = Machine(WANT)
		out = setup(m, True, 0)
		self.assertIn('all %d packages are installed' % len(K.PACKAGES),
			      out)
		self.assertEqual(m.apt, [])

	def test_other_version_is_named_and_kept_without_root(self):
		m = Machine(OTHER)
		out = setup(m, True, 1000)
		self.assertIn('%s %s is installed; kshim is measured on %s'
			      % (PKG, OTHER, WANT), out)
		self.assertEqual(m.apt, [])
		self.assertEqual(m.versions[PKG], OTHER)

	def test_other_version_is_kept_by_an_implicit_setup(self):
		# ./kshim build or test as root: the note, no install.
		m = Machine(OTHER)
		out = setup(m, False, 0)
		self.assertIn('is installed; kshim is measured on', out)
		self.assertEqual(m.apt, [])

	def test_explicit_root_setup_installs_the_pin(self):
		m = Machine(OTHER)
		out = setup(m, True, 0)
		self.assertIn('%s (%s, not %s)' % (PKG, WANT, OTHER), out)
		self.assertNotIn('is installed; kshim is measured on', out)
		self.assertIn(['apt-get', 'update'], m.apt)
		self.assertIn(['apt-get', 'install', '--allow-downgrades',
			       '%s=%s' % (PKG, WANT)], m.apt)
		self.assertEqual(m.versions[PKG], WANT)

	def test_pin_gone_from_the_archive_installs_the_newest_loudly(self):
		m = Machine(OTHER, archive_has_pin=False)
		out = setup(m, True, 0)
		self.assertIn('WARNING: %s=%s is not in the archive any more'
			      % (PKG, WANT), out)
		self.assertEqual(m.apt[-1], ['apt-get', 'install', PKG])


if __name__ == '__main__':
	unittest.main()
