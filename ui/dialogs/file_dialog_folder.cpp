#include "ui/dialogs/file_dialog_folder.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

#include <utility>

namespace telestation::ui {

namespace {

QString settingsKey(const QString& purpose)
{
    return QStringLiteral("fileDialogs/") + purpose;
}

// `path` itself when it is an existing folder, else the folder of a file in an existing folder; ""
// when neither, or when the path is relative (it would mean the working directory).
QString existingFolderOf(const QString& path)
{
    if (path.isEmpty() || QFileInfo(path).isRelative())
        return {};
    const QFileInfo info(path);
    if (info.isDir())
        return info.absoluteFilePath();
    const QFileInfo parent(info.absolutePath());
    return parent.isDir() ? parent.absoluteFilePath() : QString();
}

} // namespace

FileDialogFolder::FileDialogFolder(QString purpose) : m_purpose(std::move(purpose)) {}

QString FileDialogFolder::remembered(const QString& purpose)
{
    const QString folder = QSettings().value(settingsKey(purpose)).toString();
    return !folder.isEmpty() && QFileInfo(folder).isAbsolute() && QFileInfo(folder).isDir() ? folder : QString();
}

QString FileDialogFolder::folder(const QString& current) const
{
    if (const QString here = existingFolderOf(current); !here.isEmpty())
        return here;
    if (const QString last = remembered(m_purpose); !last.isEmpty())
        return last;
    if (const QString profiles = remembered(kProfiles); !profiles.isEmpty())
        return profiles;
    return QDir::homePath();
}

QString FileDialogFolder::suggestion(const QString& fileName) const
{
    if (!existingFolderOf(fileName).isEmpty() && !QFileInfo(fileName).isDir())
        return QFileInfo(fileName).absoluteFilePath(); // a whole path where it can be saved: as it is
    return QDir(folder()).filePath(QFileInfo(fileName).fileName());
}

void FileDialogFolder::remember(const QString& path) const
{
    const QString chosen = existingFolderOf(QFileInfo(path).absoluteFilePath());
    if (path.isEmpty() || chosen.isEmpty())
        return;
    QSettings().setValue(settingsKey(m_purpose), chosen);
}

namespace {

// Runs `ask` (a QFileDialog function given where to start) and remembers what the operator chose.
template <typename Ask>
QString chooseFrom(const QString& purpose, Ask ask)
{
    const FileDialogFolder where(purpose);
    const QString path = ask(where);
    where.remember(path);
    return path;
}

} // namespace

QString FileDialogFolder::openFile(QWidget* parent, const QString& purpose, const QString& caption,
                                   const QString& filter, const QString& current)
{
    return chooseFrom(purpose, [&](const FileDialogFolder& where) {
        return QFileDialog::getOpenFileName(parent, caption, where.folder(current), filter);
    });
}

QString FileDialogFolder::saveFile(QWidget* parent, const QString& purpose, const QString& caption,
                                   const QString& fileName, const QString& filter)
{
    return chooseFrom(purpose, [&](const FileDialogFolder& where) {
        return QFileDialog::getSaveFileName(parent, caption, where.suggestion(fileName), filter);
    });
}

QString FileDialogFolder::existingFolder(QWidget* parent, const QString& purpose, const QString& caption,
                                         const QString& current)
{
    return chooseFrom(purpose, [&](const FileDialogFolder& where) {
        return QFileDialog::getExistingDirectory(parent, caption, where.folder(current));
    });
}

} // namespace telestation::ui
